package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/heraldbot/herald/bench"
	"github.com/heraldbot/herald/service"

	"github.com/heraldbot/herald/bot/action"
	"github.com/heraldbot/herald/bot/review"
	"github.com/heraldbot/herald/store"
)

// openStoreFor opens the store named by --db or the config's store.path.
func openStoreFor(ctx context.Context, cfgPath, dbPath string) (*store.DB, *service.Config, error) {
	var cfg *service.Config
	if dbPath == "" && cfgPath != "" {
		c, err := service.Load(cfgPath)
		if err != nil {
			return nil, nil, err
		}
		cfg, dbPath = c, c.Store.Path
	}
	if dbPath == "" {
		return nil, nil, usagef("needs --config or --db")
	}
	db, err := store.Open(ctx, dbPath)
	return db, cfg, err
}

// cmdQueue is `herald queue list|show|approve|edit|reject|judge|labels`
// and `herald history`: the admin page's powers on the command line, with
// the same checks and audit records, and staff's decisions written out as
// labelled posts for `herald kb fit`.
func cmdQueue(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usagef("queue needs a subcommand: list, show, approve, edit, reject, judge, labels")
	}
	sub, args := args[0], args[1:]
	fs := newFlagSet("queue "+sub, stderr)
	cfgPath := fs.String("config", "", "configuration file")
	dbPath := fs.String("db", "", "database file")
	as := fs.String("as", "", "the staff member deciding (recorded in the audit)")
	state := fs.String("state", store.StatePending, "list: which state")
	limit := fs.Int("limit", 50, "list: how many")
	reason := fs.String("reason", "", "reject: why")
	file := fs.String("file", "", "edit: the new draft (- for stdin)")
	whisper := fs.Bool("whisper", false, "approve/edit: post as a staff whisper")
	fits := fs.String("fits", "", "reject, judge: the knowledge entries that do answer the post, comma-separated (makes it a labelled post)")
	nothingFits := fs.Bool("nothing-fits", false, "reject, judge: nothing in the knowledge base answers the post (makes it a labelled post)")
	notSupport := fs.Bool("not-support", false, "reject, judge: the post asks no support question (makes it a labelled post)")
	out := fs.String("out", "", "labels: write the labelled posts here (default stdout)")
	forum := fs.String("forum", "", "labels: the forum's address, for each post's source (default the config's discourse.url)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	db, cfg, err := openStoreFor(ctx, *cfgPath, *dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	if sub == "labels" {
		if *forum == "" && cfg != nil {
			*forum = cfg.Discourse.URL
		}
		return writeLabels(ctx, db, *forum, *out, stdout, stderr)
	}
	if sub == "list" || sub == "history" {
		states := []string{*state}
		if sub == "history" {
			states = []string{store.StateApproved, store.StateSending, store.StateDone, store.StateRejected, store.StateSkipped, store.StateFailed}
		}
		return listActions(ctx, db, states, *limit, stdout)
	}
	if len(pos) != 1 {
		return usagef("queue %s takes one action ID", sub)
	}
	id, err := strconv.ParseInt(pos[0], 10, 64)
	if err != nil {
		return usagef("bad action ID %q", pos[0])
	}
	if sub == "show" {
		return showAction(ctx, db, id, stdout)
	}
	if *as == "" {
		return usagef("queue %s needs --as USERNAME (recorded in the audit)", sub)
	}
	// Which entries fit goes to review whatever the verb: review says
	// when it may be given.
	d := review.Decision{ActionID: id, Actor: "cli:" + *as, Verb: review.Approve, Whisper: *whisper, Reason: *reason, NothingFits: *nothingFits, NotSupport: *notSupport}
	if *fits != "" {
		d.Fits = strings.Split(*fits, ",")
	}
	switch sub {
	case "approve":
	case "edit":
		if *file == "" {
			return usagef("queue edit needs --file FILE (or - for stdin)")
		}
		if d.Draft, err = readDraft(*file, stdin); err != nil {
			return err
		}
		if strings.TrimSpace(d.Draft) == "" {
			return usagef("the new draft is empty")
		}
	case "reject":
		if *reason == "" {
			return usagef("queue reject needs --reason")
		}
		d.Verb = review.Reject
	case "judge":
		d.Verb = review.Judge
	default:
		return usagef("unknown queue subcommand %q", sub)
	}
	res, err := review.Decide(ctx, db, d)
	var invalid *review.InvalidError
	if errors.As(err, &invalid) {
		return usagef("%s", invalid.Msg)
	}
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "action %d %s by %s\n", id, res.Past(), *as)
	return err
}

// writeCasesFile writes cases to a new file at path.
func writeCasesFile(path string, cases []bench.Case) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := bench.WriteCases(f, cases); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// writeLabels writes staff's decisions as labelled posts (review.Labels)
// to path, or stdout when it is empty, and says on stderr how many of
// each it found. forum is the forum's address for each post's source.
func writeLabels(ctx context.Context, db *store.DB, forum, path string, stdout, stderr io.Writer) error {
	forum = strings.TrimRight(forum, "/")
	source := func(topicID, postNumber int) string {
		if forum == "" {
			return fmt.Sprintf("topic %d, post %d", topicID, postNumber)
		}
		return fmt.Sprintf("%s/t/%d/%d", forum, topicID, postNumber)
	}
	cases, st, err := review.Labels(ctx, db, source)
	if err != nil {
		return err
	}
	if path == "" {
		err = bench.WriteCases(stdout, cases)
	} else {
		err = writeCasesFile(path, cases)
	}
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stderr, "%d labelled posts: %d answered by the knowledge base, %d by nothing in it, %d not support questions; %d decisions said nothing of the knowledge base\n",
		len(cases), st.Support, st.Abstain, st.NotSupport, st.Unjudged)
	return err
}

// listActions prints the actions in states as a table.
func listActions(ctx context.Context, db *store.DB, states []string, limit int, stdout io.Writer) error {
	list, err := db.ListActions(ctx, store.ActionFilter{States: states, Limit: limit})
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATE\tCONF\tKIND\tTOPIC\tDECIDED BY\tREASON\tCREATED")
	for _, a := range list {
		fmt.Fprintf(tw, "%d\t%s\t%.2f\t%s\t%s\t%s\t%s\t%s\n", a.ID, a.State, a.Confidence, a.Kind, oneLine(action.Describe(a.Kind, a.Payload), 50),
			a.DecidedBy, oneLine(a.Reason, 40), a.CreatedAt.Format(time.DateTime))
	}
	return tw.Flush()
}

// showAction prints one action as JSON.
func showAction(ctx context.Context, db *store.DB, id int64, stdout io.Writer) error {
	a, err := db.Action(ctx, id)
	if err != nil {
		return err
	}
	return writeJSON(stdout, map[string]any{"id": a.ID, "kind": a.Kind, "key": a.Key, "state": a.State, "confidence": a.Confidence,
		"mode": a.Mode, "reason": a.Reason, "decided_by": a.DecidedBy, "result": a.Result, "error": a.Error, "payload": a.Payload})
}

// readDraft reads an edited draft from a file, or stdin for "-", up to
// 64 KiB.
func readDraft(path string, stdin io.Reader) (string, error) {
	in := stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return "", err
		}
		defer f.Close()
		in = f
	}
	b, err := io.ReadAll(io.LimitReader(in, 64<<10))
	return string(b), err
}

// cmdAdminLink prints a one-time login link to the admin page for a
// staff member, for forums without DiscourseConnect.
func cmdAdminLink(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("admin-link", stderr)
	cfgPath := fs.String("config", "config.yaml", "configuration file")
	as := fs.String("as", "", "the staff member's forum username")
	ttl := fs.Duration("ttl", 15*time.Minute, "how long the link stays valid")
	if _, err := parseInterleaved(fs, args); err != nil {
		return err
	}
	if *as == "" {
		return usagef("admin-link needs --as USERNAME")
	}
	db, cfg, err := openStoreFor(ctx, *cfgPath, "")
	if err != nil {
		return err
	}
	defer db.Close()
	link, err := service.AdminLink(ctx, cfg, db, *as, *ttl)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "login: %s\n(single use, valid for %s)\n", link, *ttl)
	return err
}
