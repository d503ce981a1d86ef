package service

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestHTTPServerLimits(t *testing.T) {
	t.Parallel()
	srv := NewHTTPServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, err := io.ReadAll(r.Body)
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			http.Error(w, "too large", http.StatusRequestEntityTooLarge)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	if srv.ReadHeaderTimeout <= 0 || srv.ReadTimeout <= 0 || srv.WriteTimeout <= 0 || srv.IdleTimeout <= 0 || srv.MaxHeaderBytes <= 0 {
		t.Fatalf("a limit is unset: %+v", srv)
	}
	ts := httptest.NewUnstartedServer(srv.Handler)
	ts.Config = srv
	ts.Start()
	defer ts.Close()
	resp, err := http.Post(ts.URL, "application/octet-stream", bytes.NewReader(make([]byte, maxBodyBytes+1)))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("a %d-byte body got %d, want 413", maxBodyBytes+1, resp.StatusCode)
	}
}

func TestAdminBaseURL(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ listen, base, cert, want string }{
		{":8080", "", "", "http://localhost:8080"},
		{"0.0.0.0:8080", "", "", "http://localhost:8080"},
		{"127.0.0.1:9000", "", "", "http://127.0.0.1:9000"},
		{":8443", "", "c.pem", "https://localhost:8443"},
		{":8080", "https://herald.example.org/", "", "https://herald.example.org"},
	} {
		var c Config
		c.HTTP.Listen, c.Admin.BaseURL, c.HTTP.TLSCert = tt.listen, tt.base, tt.cert
		if got := c.AdminBaseURL(); got != tt.want {
			t.Errorf("adminBaseURL(%q, %q) = %q, want %q", tt.listen, tt.base, got, tt.want)
		}
	}
}
