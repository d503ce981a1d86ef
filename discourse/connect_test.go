package discourse_test

import (
	"errors"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/heraldbot/herald/discourse"
	"github.com/heraldbot/herald/discourse/discoursetest"
)

func TestDiscourseConnectOfficialVector(t *testing.T) {
	t.Parallel()
	var v struct {
		Secret, SSO, Sig, Decoded string
	}
	readShared(t, "fixtures/synthesized/discourseconnect_official_vector.json", &v)
	fields, err := discourse.DecodePayload(v.Secret, v.SSO, v.Sig)
	if err != nil {
		t.Fatal(err)
	}
	if fields.Encode() != v.Decoded {
		t.Errorf("decoded %q, want %q", fields.Encode(), v.Decoded)
	}
	// Re-encoding drops Ruby's trailing newline; the signature must then fail.
	if _, err := discourse.DecodePayload(v.Secret, strings.TrimSpace(v.SSO), v.Sig); !errors.Is(err, discourse.ErrBadSignature) {
		t.Errorf("trimmed payload: %v", err)
	}
}

func TestDiscourseConnectProviderVector(t *testing.T) {
	t.Parallel()
	var v struct {
		Secret  string `json:"secret"`
		Request struct {
			SSO string `json:"sso"`
			Sig string `json:"sig"`
		} `json:"request"`
		Response struct {
			SSO           string            `json:"sso"`
			Sig           string            `json:"sig"`
			DecodedFields map[string]string `json:"decoded_fields"`
		} `json:"response"`
		TamperCheck struct {
			SSO, Sig string
		} `json:"tamper_check"`
	}
	readShared(t, "fixtures/synthesized/discourseconnect_provider_vector.json", &v)
	if got := discourse.SignPayload(v.Secret, v.Request.SSO); got != v.Request.Sig {
		t.Errorf("request sig %s, want %s", got, v.Request.Sig)
	}
	nonces := &discourse.MemoryNonces{}
	now := time.Now()
	_ = nonces.PutNonce(t.Context(), v.Response.DecodedFields["nonce"], now.Add(time.Minute))
	c := &discourse.Connect{Secret: v.Secret, Nonces: nonces, Now: func() time.Time { return now }}
	u, err := c.Verify(t.Context(), v.Response.SSO, v.Response.Sig)
	if err != nil {
		t.Fatal(err)
	}
	if u.Username != "jane_mod" || u.Admin || !u.Moderator || !u.Staff() || !u.InGroup("support-team") || u.ExternalID != "42" {
		t.Errorf("user = %+v", u)
	}
	if _, err := c.Verify(t.Context(), v.Response.SSO, v.Response.Sig); !errors.Is(err, discourse.ErrBadNonce) {
		t.Errorf("replay: %v", err)
	}
	if _, err := c.Verify(t.Context(), v.TamperCheck.SSO, v.TamperCheck.Sig); !errors.Is(err, discourse.ErrBadSignature) {
		t.Errorf("tampered: %v", err)
	}
}

// TestDiscourseConnectAgainstFakeForum runs the whole browser flow against
// the fake forum's provider: redirect, log in, come back, verify once.
func TestDiscourseConnectAgainstFakeForum(t *testing.T) {
	t.Parallel()
	const secret = "connect-secret-0123456789"
	srv := discoursetest.New(discoursetest.WithSSOSecret(secret))
	t.Cleanup(srv.Close)
	srv.Seed("herald")
	var callback url.Values
	app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { callback = r.URL.Query() }))
	t.Cleanup(app.Close)

	nonces := &discourse.MemoryNonces{}
	clock := time.Now()
	c := &discourse.Connect{ForumURL: srv.URL, Secret: secret, Nonces: nonces, Now: func() time.Time { return clock }}
	login, err := c.LoginURL(t.Context(), app.URL+"/auth/callback")
	if err != nil {
		t.Fatal(err)
	}
	jar, _ := cookiejar.New(nil)
	browser := discoursetest.Client(t.Cleanup)
	browser.Jar = jar
	resp, err := browser.Get(login) // not logged in: the forum shows its login form
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	next := strings.TrimPrefix(login, srv.URL)
	resp, err = browser.PostForm(srv.URL+"/session/login", url.Values{"username": {"maria"}, "next": {next}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if callback == nil {
		t.Fatal("the forum never sent the browser back")
	}
	u, err := c.Verify(t.Context(), callback.Get("sso"), callback.Get("sig"))
	if err != nil {
		t.Fatal(err)
	}
	if u.Username != "maria" || !u.Moderator || !u.InGroup("support-team") {
		t.Errorf("user = %+v", u)
	}
	if _, err := c.Verify(t.Context(), callback.Get("sso"), callback.Get("sig")); !errors.Is(err, discourse.ErrBadNonce) {
		t.Errorf("replayed payload: %v", err)
	}
	// A forged payload signed with another secret.
	forged, sig := discourse.EncodePayload("not-the-secret-000", url.Values{"nonce": {"x"}, "username": {"admin"}, "external_id": {"1"}, "admin": {"true"}})
	if _, err := c.Verify(t.Context(), forged, sig); !errors.Is(err, discourse.ErrBadSignature) {
		t.Errorf("forged payload: %v", err)
	}
	// An expired nonce.
	login, _ = c.LoginURL(t.Context(), app.URL+"/auth/callback")
	callback = nil
	resp, err = browser.Get(login) // logged in now: straight back
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	clock = clock.Add(11 * time.Minute)
	if _, err := c.Verify(t.Context(), callback.Get("sso"), callback.Get("sig")); !errors.Is(err, discourse.ErrBadNonce) {
		t.Errorf("expired nonce: %v", err)
	}
}

func FuzzDecodePayload(f *testing.F) {
	sso, sig := discourse.EncodePayload("s3cret-abcdefgh", url.Values{"nonce": {"n"}, "username": {"u"}})
	f.Add("s3cret-abcdefgh", sso, sig)
	f.Add("k", "bm9uY2U9Y2I2ODI1MWVlZmI1MjExZTU4YzAwZmYxMzk1ZjBjMGI=\n", "00")
	f.Fuzz(func(t *testing.T, secret, sso, sig string) {
		v, err := discourse.DecodePayload(secret, sso, sig)
		if err == nil && discourse.SignPayload(secret, sso) != strings.ToLower(sig) {
			t.Errorf("accepted a wrong signature %q", sig)
		}
		if err == nil && v == nil {
			t.Error("nil fields without error")
		}
	})
}
