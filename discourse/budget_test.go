package discourse_test

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/heraldbot/herald/discourse"
	"github.com/heraldbot/herald/discourse/discoursetest"
)

// handlerTransport serves requests in process, so that a synctest bubble
// holds the whole exchange and its clock is virtual.
type handlerTransport struct{ h http.Handler }

func (t handlerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	t.h.ServeHTTP(rec, r)
	resp := rec.Result()
	resp.Request = r
	return resp, nil
}

// TestBudgetHoldsForABurstOf500 fires 500 calls as fast as the client
// allows and checks that no 60-second window holds more than the budget,
// and that the forum (limiting at the same budget) never answers 429.
func TestBudgetHoldsForABurstOf500(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		const budget = 60
		srv := discoursetest.NewUnstarted(discoursetest.WithRateLimit(budget))
		srv.Seed("herald")
		var mu sync.Mutex
		var sent []time.Time
		h := srv.Handler()
		record := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			sent = append(sent, time.Now())
			mu.Unlock()
			h.ServeHTTP(w, r)
		})
		c, err := discourse.NewClient("http://forum.localhost", discourse.WithAPIKey(discoursetest.BotAPIKey, "herald"),
			discourse.WithRequestBudget(budget, 10), discourse.WithHTTPClient(&http.Client{Transport: handlerTransport{record}}))
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		for i := 0; i < 500; i++ {
			if _, err := c.CurrentUser(t.Context()); err != nil {
				t.Fatalf("call %d after %s: %v", i, time.Since(start), err)
			}
		}
		if len(sent) != 500 {
			t.Fatalf("%d requests reached the forum", len(sent))
		}
		for i := range sent {
			n := 0
			for j := i; j < len(sent) && sent[j].Sub(sent[i]) < time.Minute; j++ {
				n++
			}
			if n > budget {
				t.Fatalf("%d requests in the minute from %s", n, sent[i].Sub(start))
			}
		}
		if d := time.Since(start); d < 8*time.Minute || d > 10*time.Minute {
			t.Errorf("500 calls took %s of virtual time; a 60/minute budget needs about 9 minutes", d)
		}
	})
}

// BenchmarkClientOverhead compares a client call with a bare net/http GET
// of the same fake-forum endpoint over loopback, in the same run.
func BenchmarkClientOverhead(b *testing.B) {
	srv := discoursetest.New(discoursetest.WithRateLimit(0))
	defer srv.Close()
	srv.Seed("herald")
	b.Run("bare-net-http", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			req, _ := http.NewRequest(http.MethodGet, srv.URL+"/session/current.json", nil)
			req.Header.Set("Api-Key", discoursetest.BotAPIKey)
			req.Header.Set("Api-Username", "herald")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			var buf [4096]byte
			for {
				if _, err := resp.Body.Read(buf[:]); err != nil {
					break
				}
			}
			resp.Body.Close()
		}
	})
	b.Run("discourse-client", func(b *testing.B) {
		c, _ := discourse.NewClient(srv.URL, discourse.WithAPIKey(discoursetest.BotAPIKey, "herald"), discourse.WithRequestBudget(0, 0))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := c.CurrentUser(b.Context()); err != nil {
				b.Fatal(err)
			}
		}
	})
}
