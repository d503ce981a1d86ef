package discourse

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Webhook verifies and decodes Discourse webhook deliveries.
type Webhook struct {
	// Secret is the hook's secret (Discourse requires 12+ characters).
	Secret string
	// MaxBody bounds a delivery's size (default 1 MiB).
	MaxBody int64
}

// Event is one verified delivery.
type Event struct {
	ID       string // X-Discourse-Event-Id; not stable across redeliveries
	Type     string // X-Discourse-Event-Type: post, topic, notification, ping, ...
	Name     string // X-Discourse-Event: post_created, topic_created, ...; "" for ping
	Instance string // X-Discourse-Instance: the forum's base URL

	Post         *Post
	Topic        *Topic
	Notification *Notification
	// Raw is the object under the event type key, for other event types.
	Raw json.RawMessage
}

// Webhook errors; all mean "do not act on this delivery".
var (
	ErrUnsigned     = errors.New("discourse: webhook delivery is not signed")
	ErrBadSignature = errors.New("discourse: signature does not match")
	ErrTooLarge     = errors.New("discourse: webhook body too large")
)

// VerifySignature checks header ("sha256=<hex>") against the HMAC-SHA256
// of body under secret, in constant time.
func VerifySignature(secret string, body []byte, header string) error {
	if header == "" {
		return ErrUnsigned
	}
	hexSig, ok := strings.CutPrefix(header, "sha256=")
	if !ok {
		return fmt.Errorf("%w: unknown scheme", ErrBadSignature)
	}
	got, err := hex.DecodeString(hexSig)
	if err != nil {
		return fmt.Errorf("%w: not hex", ErrBadSignature)
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	if !hmac.Equal(got, mac.Sum(nil)) {
		return ErrBadSignature
	}
	return nil
}

// Parse reads, verifies and decodes a delivery. The signature is checked
// over the exact bytes received, before any decoding.
func (w *Webhook) Parse(r *http.Request) (*Event, error) {
	if w.Secret == "" {
		return nil, errors.New("discourse: webhook secret not configured; refusing unsigned deliveries")
	}
	limit := w.MaxBody
	if limit <= 0 {
		limit = 1 << 20
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	if err != nil {
		return nil, fmt.Errorf("discourse: read webhook body: %w", err)
	}
	if int64(len(body)) > limit {
		return nil, ErrTooLarge
	}
	if err := VerifySignature(w.Secret, body, r.Header.Get("X-Discourse-Event-Signature")); err != nil {
		return nil, err
	}
	return DecodeEvent(r.Header, body)
}

// DecodeEvent decodes a verified delivery body: {"<type>": {...}}.
func DecodeEvent(h http.Header, body []byte) (*Event, error) {
	ev := &Event{
		ID:       h.Get("X-Discourse-Event-Id"),
		Type:     h.Get("X-Discourse-Event-Type"),
		Name:     h.Get("X-Discourse-Event"),
		Instance: h.Get("X-Discourse-Instance"),
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(body, &top); err != nil {
		return nil, fmt.Errorf("discourse: decode webhook body: %w", err)
	}
	if ev.Type == "" {
		for k := range top {
			ev.Type = k
		}
	}
	ev.Raw = top[ev.Type]
	switch ev.Type {
	case "post":
		ev.Post = new(Post)
		if err := json.Unmarshal(ev.Raw, ev.Post); err != nil {
			return nil, fmt.Errorf("discourse: decode webhook post: %w", err)
		}
	case "topic":
		ev.Topic = new(Topic)
		if err := json.Unmarshal(ev.Raw, ev.Topic); err != nil {
			return nil, fmt.Errorf("discourse: decode webhook topic: %w", err)
		}
	case "notification":
		ev.Notification = new(Notification)
		if err := json.Unmarshal(ev.Raw, ev.Notification); err != nil {
			return nil, fmt.Errorf("discourse: decode webhook notification: %w", err)
		}
	}
	return ev, nil
}

// Handler returns an http.Handler that verifies each delivery and passes
// it to fn: 401 for unsigned or forged bodies, 413 for oversized ones,
// 400 for undecodable ones, 500 if fn fails (Discourse may retry), and
// 200 otherwise.
func (w *Webhook) Handler(fn func(r *http.Request, ev *Event) error) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(rw, "POST only", http.StatusMethodNotAllowed)
			return
		}
		ev, err := w.Parse(r)
		switch {
		case errors.Is(err, ErrUnsigned) || errors.Is(err, ErrBadSignature):
			http.Error(rw, "bad signature", http.StatusUnauthorized)
			return
		case errors.Is(err, ErrTooLarge):
			http.Error(rw, "too large", http.StatusRequestEntityTooLarge)
			return
		case err != nil:
			http.Error(rw, "bad delivery", http.StatusBadRequest)
			return
		}
		if err := fn(r, ev); err != nil {
			http.Error(rw, "failed", http.StatusInternalServerError)
			return
		}
		rw.WriteHeader(http.StatusOK)
	})
}
