package discourse

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"
)

// DiscourseConnect errors.
var (
	ErrBadNonce    = errors.New("discourse: DiscourseConnect nonce unknown, used or expired")
	ErrLoginFailed = errors.New("discourse: DiscourseConnect login failed (nobody logged in)")
)

// NonceStore remembers issued nonces until they are used once or expire.
// The store package provides a SQLite one; MemoryNonces suits tests.
type NonceStore interface {
	PutNonce(ctx context.Context, nonce string, expires time.Time) error
	// TakeNonce deletes the nonce and reports whether it existed and had
	// not expired at now.
	TakeNonce(ctx context.Context, nonce string, now time.Time) (bool, error)
}

// Connect is the client side of DiscourseConnect: the forum is the
// identity provider for Herald's admin page.
type Connect struct {
	ForumURL string
	Secret   string
	Nonces   NonceStore
	// TTL is how long a login may take (default 10 minutes).
	TTL time.Duration
	Now func() time.Time
}

// SSOUser is who the forum says logged in.
type SSOUser struct {
	ExternalID string // the Discourse user id
	Username   string
	Name       string
	Email      string
	Admin      bool
	Moderator  bool
	Groups     []string
	ReturnURL  string
}

// Staff reports whether the user is an admin or a moderator.
func (u *SSOUser) Staff() bool { return u.Admin || u.Moderator }

// InGroup reports whether the user belongs to one of groups.
func (u *SSOUser) InGroup(groups ...string) bool {
	for _, g := range u.Groups {
		for _, want := range groups {
			if strings.EqualFold(g, want) {
				return true
			}
		}
	}
	return false
}

// SignPayload returns the signature DiscourseConnect puts beside a
// payload: lowercase hex HMAC-SHA256 of the Base64 text as sent.
func SignPayload(secret, sso string) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(sso))
	return hex.EncodeToString(mac.Sum(nil))
}

// EncodePayload encodes fields as a DiscourseConnect payload and signs it.
func EncodePayload(secret string, fields url.Values) (sso, sig string) {
	sso = base64.StdEncoding.EncodeToString([]byte(fields.Encode()))
	return sso, SignPayload(secret, sso)
}

// DecodePayload verifies sig over sso exactly as received (a trailing
// newline from Ruby's Base64 included) and decodes the fields.
func DecodePayload(secret, sso, sig string) (url.Values, error) {
	want, err := hex.DecodeString(sig)
	if err != nil {
		return nil, fmt.Errorf("%w: not hex", ErrBadSignature)
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(sso))
	if !hmac.Equal(want, mac.Sum(nil)) {
		return nil, ErrBadSignature
	}
	raw, err := base64.StdEncoding.DecodeString(strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, sso))
	if err != nil {
		return nil, fmt.Errorf("discourse: DiscourseConnect payload: %w", err)
	}
	v, err := url.ParseQuery(string(raw))
	if err != nil {
		return nil, fmt.Errorf("discourse: DiscourseConnect payload: %w", err)
	}
	return v, nil
}

func (c *Connect) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// LoginURL issues a nonce and returns the forum URL to send the browser
// to; the forum will come back to returnURL with sso and sig.
func (c *Connect) LoginURL(ctx context.Context, returnURL string) (string, error) {
	if c.Secret == "" || c.Nonces == nil {
		return "", errors.New("discourse: DiscourseConnect needs a secret and a nonce store")
	}
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("discourse: nonce: %w", err)
	}
	nonce := hex.EncodeToString(b)
	ttl := c.TTL
	if ttl <= 0 {
		ttl = 10 * time.Minute
	}
	if err := c.Nonces.PutNonce(ctx, nonce, c.now().Add(ttl)); err != nil {
		return "", fmt.Errorf("discourse: store nonce: %w", err)
	}
	sso, sig := EncodePayload(c.Secret, url.Values{"nonce": {nonce}, "return_sso_url": {returnURL}})
	return strings.TrimRight(c.ForumURL, "/") + "/session/sso_provider?" + url.Values{"sso": {sso}, "sig": {sig}}.Encode(), nil
}

// Verify checks a returned payload: signature, then the nonce (issued by
// us, unused, unexpired; it is consumed), then the fields.
func (c *Connect) Verify(ctx context.Context, sso, sig string) (*SSOUser, error) {
	v, err := DecodePayload(c.Secret, sso, sig)
	if err != nil {
		return nil, err
	}
	ok, err := c.Nonces.TakeNonce(ctx, v.Get("nonce"), c.now())
	if err != nil {
		return nil, fmt.Errorf("discourse: check nonce: %w", err)
	}
	if !ok {
		return nil, ErrBadNonce
	}
	if v.Get("failed") == "true" {
		return nil, ErrLoginFailed
	}
	u := &SSOUser{
		ExternalID: v.Get("external_id"),
		Username:   v.Get("username"),
		Name:       v.Get("name"),
		Email:      v.Get("email"),
		Admin:      v.Get("admin") == "true",
		Moderator:  v.Get("moderator") == "true",
		ReturnURL:  v.Get("return_sso_url"),
	}
	if g := v.Get("groups"); g != "" {
		u.Groups = strings.Split(g, ",")
	}
	if u.Username == "" || u.ExternalID == "" {
		return nil, errors.New("discourse: DiscourseConnect payload lacks username or external_id")
	}
	return u, nil
}

// MemoryNonces is an in-memory NonceStore, safe for concurrent use.
type MemoryNonces struct {
	mu sync.Mutex
	m  map[string]time.Time
}

// PutNonce records a nonce.
func (s *MemoryNonces) PutNonce(_ context.Context, nonce string, expires time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string]time.Time{}
	}
	s.m[nonce] = expires
	return nil
}

// TakeNonce consumes a nonce.
func (s *MemoryNonces) TakeNonce(_ context.Context, nonce string, now time.Time) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	exp, ok := s.m[nonce]
	delete(s.m, nonce)
	return ok && now.Before(exp), nil
}
