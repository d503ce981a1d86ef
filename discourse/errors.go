package discourse

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// ErrorResponse is a non-2xx answer from the forum.
type ErrorResponse struct {
	Method     string
	Path       string // the request path, without query or credentials
	StatusCode int
	// Errors are the server's (localised) messages; match on StatusCode
	// and ErrorType, never on text.
	Errors    []string
	ErrorType string
	// Action is set by post creation failures (422, "create_post").
	Action string
}

func (e *ErrorResponse) Error() string {
	msg := strings.Join(e.Errors, "; ")
	if msg == "" {
		msg = http.StatusText(e.StatusCode)
	}
	t := ""
	if e.ErrorType != "" {
		t = " (" + e.ErrorType + ")"
	}
	return fmt.Sprintf("discourse: %s %s: %d%s: %s", e.Method, e.Path, e.StatusCode, t, msg)
}

// Is lets errors.Is(err, ErrNotFound) and friends match by status.
func (e *ErrorResponse) Is(target error) bool {
	switch target {
	case ErrNotFound:
		return e.StatusCode == http.StatusNotFound
	case ErrForbidden:
		return e.StatusCode == http.StatusForbidden
	case ErrNotVisible:
		return e.StatusCode == http.StatusNotFound || e.StatusCode == http.StatusForbidden
	case ErrInvalidKey:
		return e.StatusCode == http.StatusForbidden && e.ErrorType == "invalid_access"
	}
	return false
}

// Sentinels matched by ErrorResponse.Is.
var (
	ErrNotFound   = errors.New("discourse: not found")
	ErrForbidden  = errors.New("discourse: forbidden")
	ErrInvalidKey = errors.New("discourse: invalid API key, username or scope")
	// ErrNotVisible matches a record the forum will not show this user:
	// missing or deleted (404), or there but hidden by Guardian, such as
	// a whisper for a non-staff account or a private message it is not
	// in (403 invalid_access).
	ErrNotVisible = errors.New("discourse: not visible to this user")
)

// RateLimitError is a 429 from the forum, or a call the client refused
// because an earlier 429's wait is not over.
type RateLimitError struct {
	// Wait is how long the server asked to wait.
	Wait time.Duration
	// Until is when calls may resume.
	Until time.Time
	// Code is the Discourse-Rate-Limit-Error-Code header, if sent.
	Code string
	// Local reports that the client refused the call without sending it.
	Local bool
}

func (e *RateLimitError) Error() string {
	if e.Local {
		return fmt.Sprintf("discourse: rate limited until %s (not sent)", e.Until.UTC().Format(time.RFC3339))
	}
	code := ""
	if e.Code != "" {
		code = " (" + e.Code + ")"
	}
	return fmt.Sprintf("discourse: rate limited%s: retry in %s", code, e.Wait)
}

// PendingError reports that a created post went to the review queue
// instead of being published.
type PendingError struct {
	PendingCount int
	Reason       string
}

func (e *PendingError) Error() string {
	return fmt.Sprintf("discourse: post queued for review (%d pending): %s", e.PendingCount, e.Reason)
}

// ErrResponseLost is returned by CreatePost when the request may have
// reached the server but its answer did not come back (a timeout or a
// dropped connection after sending). The post may exist; callers must
// check the topic before trying again.
var ErrResponseLost = errors.New("discourse: response lost; the write may have happened")

// RedirectError reports that the forum answered with a redirect to
// another scheme or host. The client does not follow it, so the API key
// never reaches that host; it is a configuration error (the forum moved,
// or a front end redirects to another domain): set the forum's URL to the
// final address.
type RedirectError struct {
	From, To string // scheme://host of the forum and of the redirect target
}

func (e *RedirectError) Error() string {
	return fmt.Sprintf("discourse: the forum at %s redirects to %s; not following, so the API key stays with the configured host (set the forum URL to the address it redirects to)", e.From, e.To)
}

// ErrInsecureURL is returned for a plain-http forum URL that is not on
// loopback: the API key would cross the network in the clear.
var ErrInsecureURL = errors.New("discourse: a forum URL that is not on loopback must use https://")
