package discoursetest

import (
	"net/http"

	"github.com/heraldbot/herald/discourse"
)

// Discourse tells "not there" from "not for you": a missing or deleted
// record raises Discourse::NotFound (404 not_found), while a record that
// exists but fails Guardian's can_see? (a private message the caller is
// not in, a whisper for a non-staff user) raises Discourse::InvalidAccess
// from ensure_can_see! (403 invalid_access). The answers are rendered by
// application_controller.rb rescue_discourse_actions.

// access is how a request for a record is answered.
type access int

const (
	accessOK        access = iota
	accessNotFound         // 404 not_found
	accessForbidden        // 403 invalid_access
)

// topicAccess applies topics_controller.rb / lib/topic_view.rb
// check_and_raise_exceptions to t for u.
func (s *Server) topicAccess(t *Topic, u *User) access {
	switch {
	case t == nil || t.Deleted && (u == nil || !u.Staff()):
		return accessNotFound
	case !s.visible(t, u) && !t.Deleted:
		return accessForbidden
	}
	return accessOK
}

// postAccess applies posts_controller.rb find_post_using and
// Guardian#can_see_post? to p for u.
func (s *Server) postAccess(p *Post, u *User) access {
	staff := u != nil && u.Staff()
	if p == nil || p.Deleted && !staff {
		return accessNotFound
	}
	if a := s.topicAccess(s.topics[p.TopicID], u); a != accessOK {
		return a
	}
	if p.PostType == discourse.PostTypeWhisper && !staff {
		return accessForbidden
	}
	return accessOK
}

// writeAccess answers a refused access and reports whether it did.
func writeAccess(w http.ResponseWriter, a access) bool {
	switch a {
	case accessNotFound:
		writeNotFound(w)
	case accessForbidden:
		writeForbidden(w)
	default:
		return false
	}
	return true
}
