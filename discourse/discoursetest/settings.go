package discoursetest

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// SiteSettings are the site settings that shape what the fake accepts
// from non-staff posters. DefaultSiteSettings gives Discourse's defaults;
// a zero duration or length switches the rule off, as setting it to 0 in
// the admin panel does.
type SiteSettings struct {
	// RateLimitCreatePost is the wait between two posts of one user
	// (rate_limit_create_post, 5 s); RateLimitNewUserCreatePost the same
	// for trust level 0 (rate_limit_new_user_create_post, 30 s).
	RateLimitCreatePost        time.Duration
	RateLimitNewUserCreatePost time.Duration
	// RateLimitCreateTopic is the wait between two topics of one user
	// (rate_limit_create_topic, 15 s). Newer Discourse dropped the
	// new-user variant (migration DeleteUnusedSiteSettings).
	RateLimitCreateTopic time.Duration
	// UniquePosts is how long an identical body from the same user is
	// refused (unique_posts_mins, 5 min).
	UniquePosts time.Duration
	// Topic title lengths (min_topic_title_length 15,
	// max_topic_title_length 255, min_personal_message_title_length 2).
	MinTopicTitleLength           int
	MaxTopicTitleLength           int
	MinPersonalMessageTitleLength int
	// AllowDuplicateTopicTitles lets two regular topics share a title
	// (allow_duplicate_topic_titles, false).
	AllowDuplicateTopicTitles bool
}

// DefaultSiteSettings returns Discourse's defaults (config/site_settings.yml).
func DefaultSiteSettings() SiteSettings {
	return SiteSettings{
		RateLimitCreatePost:           5 * time.Second,
		RateLimitNewUserCreatePost:    30 * time.Second,
		RateLimitCreateTopic:          15 * time.Second,
		UniquePosts:                   5 * time.Minute,
		MinTopicTitleLength:           15,
		MaxTopicTitleLength:           255,
		MinPersonalMessageTitleLength: 2,
	}
}

// WithSiteSettings replaces the default site settings.
func WithSiteSettings(st SiteSettings) Option { return func(s *Server) { s.settings = st } }

// postingRules holds what the rules remember between requests: when each
// user last created a post or topic, and the bodies they recently posted.
type postingRules struct {
	last   map[string]time.Time // "post:<user>" / "topic:<user>" → last create
	bodies map[string]time.Time // unique-post key → when it was posted
}

// uniquePostKey is Post#unique_post_key: the user and a SHA-1 of the
// body with all white space removed, lower-cased (app/models/post.rb).
func uniquePostKey(userID int, raw string) string {
	squeezed := strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return unicode.ToLower(r)
	}, raw)
	sum := sha1.Sum([]byte(squeezed))
	return strconv.Itoa(userID) + ":" + hex.EncodeToString(sum[:])
}

// validateCreate runs the checks Discourse makes before it creates a
// post: the reply's topic (lib/post_creator.rb), the body's length and,
// for non-staff, its uniqueness (lib/validators/post_validator.rb), the
// title (app/models/topic.rb). It returns the full messages of the 422,
// or nil. Staff skip the unique-post check; private messages
// skip it and title uniqueness. The caller holds s.mu.
func (s *Server) validateCreate(u *User, t *Topic, title string, newTopic, pm bool, raw string) []string {
	if !newTopic {
		// PostCreator reports a reply to a topic that is not there as a
		// validation failure (lib/post_creator.rb), not a 404.
		if !s.visible(t, u) {
			return []string{"Topic not found"}
		}
		if (t.Closed || t.Archived) && !u.Staff() {
			return []string{"This topic is closed; you cannot reply."}
		}
	}
	// A present but blank raw reaches the validators and fails there.
	body := len([]rune(strings.TrimSpace(raw)))
	switch {
	case body == 0:
		return []string{"Body can't be blank"}
	case body < 20:
		return []string{"Body is too short (minimum is 20 characters)"}
	case len(raw) > 32000:
		return []string{"Body is limited to 32000 characters"}
	}
	var errs []string
	st := s.settings
	if newTopic {
		n := len([]rune(strings.TrimSpace(title)))
		minLen := st.MinTopicTitleLength
		if pm {
			minLen = st.MinPersonalMessageTitleLength
		}
		switch {
		case n < minLen:
			errs = append(errs, fmt.Sprintf("Title is too short (minimum is %d characters)", minLen))
		case st.MaxTopicTitleLength > 0 && n > st.MaxTopicTitleLength:
			errs = append(errs, fmt.Sprintf("Title is too long (maximum is %d characters)", st.MaxTopicTitleLength))
		}
		if !pm && !st.AllowDuplicateTopicTitles && s.titleTaken(title) {
			errs = append(errs, "Title has already been used")
		}
	}
	if st.UniquePosts > 0 && !u.Staff() && !pm {
		if at, ok := s.rules.bodies[uniquePostKey(u.ID, raw)]; ok && s.now().Sub(at) < st.UniquePosts {
			errs = append(errs, "Body is too similar to what you recently posted")
		}
	}
	return errs
}

// titleTaken reports whether a visible regular topic already has title,
// compared case-insensitively as Topic's unique_among validator does.
func (s *Server) titleTaken(title string) bool {
	for _, t := range s.topics {
		if !t.Deleted && t.Archetype == "regular" && strings.EqualFold(strings.TrimSpace(t.Title), strings.TrimSpace(title)) {
			return true
		}
	}
	return false
}

// rateLimitWait returns how long u must still wait before this create,
// or 0. Topic and Post both carry `rate_limit` (lib/rate_limiter/
// on_create_record.rb: one action per rate_limit_create_* seconds), so a
// new topic counts against both limiters; staff are never limited
// (lib/rate_limiter.rb rate_unlimited?). The caller holds s.mu.
func (s *Server) rateLimitWait(u *User, newTopic bool) time.Duration {
	if u.Staff() {
		return 0
	}
	now := s.now()
	var wait time.Duration
	check := func(key string, limit time.Duration) {
		if last, ok := s.rules.last[key]; ok && limit > 0 {
			wait = max(wait, limit-now.Sub(last))
		}
	}
	postLimit := s.settings.RateLimitCreatePost
	if u.TrustLevel == 0 {
		postLimit = s.settings.RateLimitNewUserCreatePost
	}
	check("post:"+strconv.Itoa(u.ID), postLimit)
	if newTopic {
		check("topic:"+strconv.Itoa(u.ID), s.settings.RateLimitCreateTopic)
	}
	return max(wait, 0)
}

// recordCreate remembers a successful create for the limiters and the
// unique-post check. The caller holds s.mu.
func (s *Server) recordCreate(u *User, newTopic bool, raw string) {
	now := s.now()
	s.rules.last["post:"+strconv.Itoa(u.ID)] = now
	if newTopic {
		s.rules.last["topic:"+strconv.Itoa(u.ID)] = now
	}
	s.rules.bodies[uniquePostKey(u.ID, raw)] = now
}

// writeRateLimited answers a per-user create limit as Discourse's
// application controller renders RateLimiter::LimitExceeded: 429 with
// Retry-After and {errors, error_type: rate_limit, extras}.
func writeRateLimited(w http.ResponseWriter, wait time.Duration) {
	secs := max(1, int((wait+time.Second-1)/time.Second))
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	left := fmt.Sprintf("%d seconds", secs)
	if secs <= 3 {
		left = "a few seconds"
	}
	writeJSON(w, http.StatusTooManyRequests, map[string]any{
		"errors":     []string{fmt.Sprintf("You’ve performed this action too many times. Please wait %s before trying again.", left)},
		"error_type": "rate_limit",
		"extras":     map[string]any{"wait_seconds": secs, "time_left": left},
	})
}
