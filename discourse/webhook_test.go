package discourse_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/heraldbot/herald/discourse"
)

func sign(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

func delivery(body, sig string, h map[string]string) *http.Request {
	r := httptest.NewRequest(http.MethodPost, "/webhooks/discourse", strings.NewReader(body))
	if sig != "" {
		r.Header.Set("X-Discourse-Event-Signature", sig)
	}
	for k, v := range h {
		r.Header.Set(k, v)
	}
	return r
}

func TestWebhookHandler(t *testing.T) {
	t.Parallel()
	const secret = "webhook-secret-for-tests"
	body := `{"post":{"id":7,"username":"alice","raw":"hi @herald","post_number":2,"post_type":1,"topic_id":3,"created_at":"2026-11-30T12:00:00.000Z"}}`
	hdr := map[string]string{"X-Discourse-Event-Type": "post", "X-Discourse-Event": "post_created", "X-Discourse-Event-Id": "9"}
	var got *discourse.Event
	h := (&discourse.Webhook{Secret: secret, MaxBody: 1024}).Handler(func(r *http.Request, ev *discourse.Event) error {
		got = ev
		return nil
	})
	tests := []struct {
		name   string
		req    *http.Request
		status int
	}{
		{"valid", delivery(body, sign(secret, []byte(body)), hdr), 200},
		{"unsigned", delivery(body, "", hdr), 401},
		{"wrong secret", delivery(body, sign("another-secret-123", []byte(body)), hdr), 401},
		{"tampered body", delivery(strings.Replace(body, "alice", "mallory", 1), sign(secret, []byte(body)), hdr), 401},
		{"not hex", delivery(body, "sha256=zz", hdr), 401},
		{"other scheme", delivery(body, "sha1="+strings.Repeat("0", 40), hdr), 401},
		{"oversized", delivery(strings.Repeat(" ", 2048)+body, sign(secret, []byte(strings.Repeat(" ", 2048)+body)), hdr), 413},
		{"signed garbage", delivery("not json", sign(secret, []byte("not json")), hdr), 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got = nil
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, tt.req)
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d", rec.Code, tt.status)
			}
			if tt.status == 200 && (got == nil || got.Name != "post_created" || got.Post == nil || got.Post.Username != "alice") {
				t.Errorf("event = %+v", got)
			}
			if tt.status != 200 && got != nil {
				t.Error("handler called for a rejected delivery")
			}
		})
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/webhooks/discourse", nil))
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("GET: %d", rec.Code)
	}
	if _, err := (&discourse.Webhook{}).Parse(delivery(body, sign("", []byte(body)), hdr)); err == nil {
		t.Error("a webhook without a secret accepted a delivery")
	}
}

// TestWebhookSharedVectors checks the vectors computed for the project
// (../shared/discourse/fixtures/synthesized).
func TestWebhookSharedVectors(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"webhook_post_created_vector.json", "webhook_ping_vector.json"} {
		var v struct {
			Secret  string            `json:"secret"`
			Headers map[string]string `json:"headers"`
			RawBody string            `json:"raw_body"`
		}
		readShared(t, filepath.Join("fixtures", "synthesized", name), &v)
		wh := &discourse.Webhook{Secret: v.Secret}
		ev, err := wh.Parse(delivery(v.RawBody, v.Headers["X-Discourse-Event-Signature"], v.Headers))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if v.Headers["X-Discourse-Event"] == "post_created" && (ev.Post == nil || ev.Post.ID == 0 || ev.Post.TopicID == 0) {
			t.Errorf("%s: post not decoded: %+v", name, ev)
		}
		if ev.Type != v.Headers["X-Discourse-Event-Type"] {
			t.Errorf("%s: type %q", name, ev.Type)
		}
		tampered := []byte(v.RawBody)
		tampered[len(tampered)/2] ^= 1
		if _, err := wh.Parse(delivery(string(tampered), v.Headers["X-Discourse-Event-Signature"], v.Headers)); !errors.Is(err, discourse.ErrBadSignature) {
			t.Errorf("%s tampered: %v", name, err)
		}
	}
}

// readShared decodes a file of ../shared/discourse or skips the test.
func readShared(t *testing.T, rel string, v any) {
	t.Helper()
	path := filepath.Join("..", "..", "shared", "discourse", rel)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("skipping: %s not available (../shared sits beside the repository in the dev environment): %v", path, err)
	}
	if err := json.NewDecoder(bytes.NewReader(b)).Decode(v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func FuzzVerifySignature(f *testing.F) {
	f.Add("secret-abcdefgh", []byte(`{"ping":"OK"}`), "sha256=00")
	f.Add("", []byte{}, "")
	f.Fuzz(func(t *testing.T, secret string, body []byte, header string) {
		err := discourse.VerifySignature(secret, body, header)
		if err == nil && header != sign(secret, body) && !strings.EqualFold(header, sign(secret, body)) {
			t.Errorf("accepted signature %q for body %q", header, body)
		}
		if discourse.VerifySignature(secret, body, sign(secret, body)) != nil {
			t.Error("rejected a correct signature")
		}
	})
}

func FuzzDecodeEvent(f *testing.F) {
	f.Add("post", `{"post":{"id":1,"raw":"x"}}`)
	f.Add("topic", `{"topic":{"id":1,"tags":[{"id":1,"name":"a"}],"accepted_answer":{"post_number":2}}}`)
	f.Add("notification", `{"notification":{"id":1}}`)
	f.Add("", `{"ping":"OK"}`)
	f.Fuzz(func(t *testing.T, typ, body string) {
		h := http.Header{}
		h.Set("X-Discourse-Event-Type", typ)
		ev, err := discourse.DecodeEvent(h, []byte(body))
		if err == nil && ev == nil {
			t.Error("nil event without error")
		}
	})
}
