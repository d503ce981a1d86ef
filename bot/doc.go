// Package bot is Herald's behaviour: it turns posts into answers by running
// the knowledge engine over the store's knowledge base, and (as it grows)
// polls the forum, records decisions in the action log and performs them.
//
// Dependencies point one way: bot uses discourse, knowledge and store;
// nothing imports bot. It talks neither SQL nor HTTP itself.
package bot
