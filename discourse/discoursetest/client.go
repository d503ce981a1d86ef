package discoursetest

import "net/http"

// Client returns an HTTP client with connections of its own, for a test
// that talks to this server or any other over HTTP; cleanup (a test's
// Cleanup) closes them when the test ends. On http.DefaultTransport,
// which http.Get and http.DefaultClient share, the Close of any
// httptest server in a parallel test closes the idle connections, and a
// request that has just taken one fails with "http: CloseIdleConnections
// called" (seen in CI in bot/admin's concurrent-approval logins).
func Client(cleanup func(func())) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}
