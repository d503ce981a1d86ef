package service

import (
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/heraldbot/herald/discourse"
)

// Limits of Herald's HTTP servers: a client that trickles its headers or
// body, or sends a huge one, costs a bounded connection, not a goroutine
// forever. Webhook payloads and admin forms are far below maxBodyBytes.
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 30 * time.Second
	writeTimeout      = 60 * time.Second
	idleTimeout       = 120 * time.Second
	maxHeaderBytes    = 64 << 10
	maxBodyBytes      = 1 << 20
)

// NewHTTPServer returns a server for h with every timeout and size limit
// set.
func NewHTTPServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           http.MaxBytesHandler(h, maxBodyBytes),
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
	}
}

// serveOn serves srv on ln, over TLS when a certificate is configured.
func serveOn(srv *http.Server, ln net.Listener, certFile, keyFile string) error {
	if certFile != "" {
		return srv.ServeTLS(ln, certFile, keyFile)
	}
	return srv.Serve(ln)
}

// AdminBaseURL is where staff reach the admin page, which is where
// DiscourseConnect sends them back: admin.base_url, or the listen address
// with a host a browser can open (an empty or unspecified host becomes
// localhost).
func (cfg *Config) AdminBaseURL() string {
	if cfg.Admin.BaseURL != "" {
		return strings.TrimRight(cfg.Admin.BaseURL, "/")
	}
	scheme := "http"
	if cfg.HTTP.TLSCert != "" {
		scheme = "https"
	}
	host, port, err := net.SplitHostPort(cfg.HTTP.Listen)
	if err != nil {
		return scheme + "://" + cfg.HTTP.Listen
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "localhost"
	}
	return scheme + "://" + net.JoinHostPort(host, port)
}

// warnExposed logs what makes a listener unsafe on a network: plain HTTP
// on a non-loopback address with no https base URL in front of it.
func warnExposed(log *slog.Logger, cfg *Config) {
	host, _, err := net.SplitHostPort(cfg.HTTP.Listen)
	if err != nil {
		return
	}
	loopback := host != "" && discourse.IsLoopback(host)
	if !loopback && cfg.HTTP.TLSCert == "" && !strings.HasPrefix(cfg.Admin.BaseURL, "https://") {
		log.Warn(fmt.Sprintf("http.listen %s is reachable from the network over plain HTTP: set http.tls_cert and http.tls_key, or put a TLS reverse proxy in front and set admin.base_url to its https:// address", cfg.HTTP.Listen))
	}
}
