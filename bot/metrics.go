package bot

import "github.com/prometheus/client_golang/prometheus"

// Metrics are the bot's Prometheus metrics, registered on the registry
// given to NewMetrics (never the global default).
type Metrics struct {
	Polls          prometheus.Counter
	PostsSeen      prometheus.Counter
	Decisions      *prometheus.CounterVec // by trigger and state
	RepliesPosted  prometheus.Counter
	QueueDepth     prometheus.Gauge
	APIErrors      prometheus.Counter
	RateLimitWaits prometheus.Counter
}

// NewMetrics creates the metrics and registers them on reg (if not nil).
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		Polls:          prometheus.NewCounter(prometheus.CounterOpts{Name: "herald_polls_total", Help: "Poll cycles run."}),
		PostsSeen:      prometheus.NewCounter(prometheus.CounterOpts{Name: "herald_posts_seen_total", Help: "New posts seen on the forum."}),
		Decisions:      prometheus.NewCounterVec(prometheus.CounterOpts{Name: "herald_decisions_total", Help: "Decisions recorded, by trigger and resulting state."}, []string{"trigger", "state"}),
		RepliesPosted:  prometheus.NewCounter(prometheus.CounterOpts{Name: "herald_replies_posted_total", Help: "Replies posted to the forum."}),
		QueueDepth:     prometheus.NewGauge(prometheus.GaugeOpts{Name: "herald_queue_depth", Help: "Drafts waiting for staff approval."}),
		APIErrors:      prometheus.NewCounter(prometheus.CounterOpts{Name: "herald_api_errors_total", Help: "Failed Discourse API calls."}),
		RateLimitWaits: prometheus.NewCounter(prometheus.CounterOpts{Name: "herald_rate_limit_waits_total", Help: "Calls refused or answered 429 by the request budget."}),
	}
	if reg != nil {
		reg.MustRegister(m.Polls, m.PostsSeen, m.Decisions, m.RepliesPosted, m.QueueDepth, m.APIErrors, m.RateLimitWaits)
	}
	return m
}
