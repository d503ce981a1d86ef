package service

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/heraldbot/herald/bot"
	"github.com/heraldbot/herald/discourse"
	"github.com/heraldbot/herald/importer"
	"github.com/heraldbot/herald/knowledge"

	"go.yaml.in/yaml/v3"
)

// Config mirrors config.example.yaml. Load it with Load: defaults,
// then the YAML (unknown keys are errors), then environment overrides for
// secrets, then validation.
type Config struct {
	Discourse struct {
		URL               string   `yaml:"url"`
		APIKey            string   `yaml:"api_key"`
		Username          string   `yaml:"username"`
		RequestsPerMinute int      `yaml:"requests_per_minute"`
		Timeout           Duration `yaml:"timeout"`
	} `yaml:"discourse"`
	Bot struct {
		Mode              string          `yaml:"mode"`
		PollInterval      Duration        `yaml:"poll_interval"`
		Paused            bool            `yaml:"paused"`
		Whisper           bool            `yaml:"whisper"`
		AutoPost          float64         `yaml:"auto_post_confidence"`
		CategoryAutoPost  map[int]float64 `yaml:"category_auto_post_confidence"`
		MaxReplyChars     int             `yaml:"max_reply_chars"`
		QueueFloor        float64         `yaml:"queue_floor"`
		Categories        []int           `yaml:"categories"`
		ExcludeCategories []int           `yaml:"exclude_categories"`
		MinTrustLevel     int             `yaml:"min_trust_level"`
		SkipStaff         bool            `yaml:"skip_staff"`
		SkipTags          []string        `yaml:"skip_tags"`
		IgnoreUsers       []string        `yaml:"ignore_users"`
		MaxPerTopic       int             `yaml:"max_posts_per_topic"`
		HourlyBudget      int             `yaml:"hourly_budget"`
		// MaxMentionsPerUser bounds the answers to one account's mentions
		// and replies a day (0: 5).
		MaxMentionsPerUser int      `yaml:"max_mentions_per_user_per_day"`
		Backfill           Duration `yaml:"backfill"`
	} `yaml:"bot"`
	Store struct {
		Path string `yaml:"path"`
	} `yaml:"store"`
	Knowledge struct {
		Sources []string `yaml:"sources"`
		// Model is a model file written by `herald kb fit` (default: the
		// embedded model).
		Model string `yaml:"model"`
		// GitHub repositories whose issues are imported and kept fresh
		// (token from GITHUB_TOKEN).
		GitHub []importer.GitHubSource `yaml:"github"`
	} `yaml:"knowledge"`
	HTTP struct {
		Listen string `yaml:"listen"`
		// TLSCert and TLSKey serve the admin page, webhooks and health
		// over HTTPS.
		TLSCert string `yaml:"tls_cert"`
		TLSKey  string `yaml:"tls_key"`
		// MetricsListen serves /metrics on its own address (for example
		// a loopback one scraped locally) instead of on listen.
		MetricsListen string `yaml:"metrics_listen"`
	} `yaml:"http"`
	Admin struct {
		// BaseURL is where staff reach the page (http.listen behind a
		// proxy, usually https); DiscourseConnect returns there.
		BaseURL string   `yaml:"base_url"`
		Groups  []string `yaml:"groups"`
		// ConnectSecret enables "log in with the forum"; set it with
		// HERALD_CONNECT_SECRET.
		ConnectSecret string `yaml:"connect_secret"`
	} `yaml:"admin"`
	Sweeps struct {
		// Timezone of the cron schedules (default: the host's).
		Timezone   string `yaml:"timezone"`
		Unanswered struct {
			Schedule    string   `yaml:"schedule"` // cron, e.g. "0 */6 * * *"; empty: off
			MinAge      Duration `yaml:"min_age"`
			MaxAge      Duration `yaml:"max_age"`
			AllowedTags []string `yaml:"allowed_tags"`
			AutoPost    bool     `yaml:"auto_post"`
		} `yaml:"unanswered"`
		Digest struct {
			Period     Duration `yaml:"period"`
			CategoryID int      `yaml:"category_id"`
			Group      string   `yaml:"group"`
		} `yaml:"digest"`
		Learn struct {
			Schedule string   `yaml:"schedule"`
			Window   Duration `yaml:"window"`
		} `yaml:"learn"`
	} `yaml:"sweeps"`
	Webhook struct {
		Secret string `yaml:"secret"`
		Path   string `yaml:"path"`
	} `yaml:"webhook"`
	Log struct {
		Level  string `yaml:"level"`
		Format string `yaml:"format"`
	} `yaml:"log"`
}

// Duration is a time.Duration written as a Go duration string ("30s").
type Duration time.Duration

// UnmarshalYAML parses "30s", "5m", "24h".
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	var s string
	if err := n.Decode(&s); err != nil {
		return err
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	*d = Duration(v)
	return nil
}

// D returns the time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// ValidationError names the config field that is wrong.
type ValidationError struct {
	Field string
	Err   error
}

func (e *ValidationError) Error() string { return fmt.Sprintf("config: %s: %v", e.Field, e.Err) }
func (e *ValidationError) Unwrap() error { return e.Err }

var (
	errRequired = errors.New("required")
	errInvalid  = errors.New("invalid")
)

// Default is what a config file overrides.
func Default() Config {
	var c Config
	c.Discourse.Username = "herald"
	c.Discourse.RequestsPerMinute = 50
	c.Discourse.Timeout = Duration(30 * time.Second)
	d := bot.DefaultOptions()
	c.Bot.Mode = string(d.Mode)
	c.Bot.PollInterval = Duration(30 * time.Second)
	c.Bot.MaxPerTopic = d.MaxPerTopic
	c.Bot.MaxReplyChars = knowledge.DefaultMaxReplyChars
	c.Bot.HourlyBudget = d.HourlyBudget
	c.Bot.MaxMentionsPerUser = d.MaxMentionsPerUser
	c.Store.Path = "herald.db"
	c.Knowledge.Sources = []string{"builtin:vllm"}
	c.HTTP.Listen = "127.0.0.1:8080"
	c.Webhook.Path = "/webhooks/discourse"
	c.Sweeps.Unanswered.MinAge = Duration(2 * time.Hour)
	c.Sweeps.Unanswered.MaxAge = Duration(14 * 24 * time.Hour)
	c.Sweeps.Digest.Period = Duration(7 * 24 * time.Hour)
	c.Sweeps.Learn.Window = Duration(7 * 24 * time.Hour)
	c.Log.Level = "info"
	c.Log.Format = "text"
	return c
}

// Parse reads YAML over the defaults, applies environment overrides
// (HERALD_DISCOURSE_URL, HERALD_DISCOURSE_API_KEY, HERALD_DISCOURSE_USERNAME,
// HERALD_WEBHOOK_SECRET, HERALD_BOT_MODE) and validates.
func Parse(r io.Reader, getenv func(string) string) (*Config, error) {
	c := Default()
	data, err := io.ReadAll(io.LimitReader(r, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	if err := checkConfigNode(&doc); err != nil {
		return nil, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("config: %w", err)
	}
	for env, dst := range map[string]*string{
		"HERALD_DISCOURSE_URL":      &c.Discourse.URL,
		"HERALD_DISCOURSE_API_KEY":  &c.Discourse.APIKey,
		"HERALD_DISCOURSE_USERNAME": &c.Discourse.Username,
		"HERALD_WEBHOOK_SECRET":     &c.Webhook.Secret,
		"HERALD_CONNECT_SECRET":     &c.Admin.ConnectSecret,
		"HERALD_BOT_MODE":           &c.Bot.Mode,
	} {
		if v := getenv(env); v != "" {
			*dst = v
		}
	}
	if err := c.validate(); err != nil {
		return nil, err
	}
	return &c, nil
}

// Load reads the config file at path, with the environment overrides of
// Parse.
func Load(path string) (*Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	defer f.Close()
	return Parse(f, os.Getenv)
}

func (c *Config) validate() error {
	fail := func(field string, err error) error { return &ValidationError{Field: field, Err: err} }
	if c.Discourse.URL == "" {
		return fail("discourse.url", errRequired)
	}
	if u, err := url.Parse(c.Discourse.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fail("discourse.url", fmt.Errorf("%w: %q is not an http(s) URL", errInvalid, c.Discourse.URL))
	} else if u.Scheme == "http" && !discourse.IsLoopback(u.Hostname()) {
		return fail("discourse.url", fmt.Errorf("%w: %s: a forum that is not on this machine must use https://, or the API key crosses the network in the clear", errInvalid, u.Redacted()))
	}
	if c.Discourse.APIKey == "" {
		return fail("discourse.api_key", fmt.Errorf("%w (set HERALD_DISCOURSE_API_KEY)", errRequired))
	}
	if c.Discourse.Username == "" {
		return fail("discourse.username", errRequired)
	}
	if c.Discourse.RequestsPerMinute < 1 {
		return fail("discourse.requests_per_minute", fmt.Errorf("%w: must be at least 1", errInvalid))
	}
	switch c.Bot.Mode {
	case "shadow", "queue", "auto":
	default:
		return fail("bot.mode", fmt.Errorf("%w: %q (want shadow, queue or auto)", errInvalid, c.Bot.Mode))
	}
	if c.Bot.PollInterval.D() < time.Second {
		return fail("bot.poll_interval", fmt.Errorf("%w: at least 1s", errInvalid))
	}
	if c.Bot.AutoPost < 0 || c.Bot.AutoPost > 1 {
		return fail("bot.auto_post_confidence", fmt.Errorf("%w: between 0 and 1", errInvalid))
	}
	if c.Bot.QueueFloor < 0 || c.Bot.QueueFloor > 1 || c.Bot.AutoPost > 0 && c.Bot.QueueFloor > c.Bot.AutoPost {
		return fail("bot.queue_floor", fmt.Errorf("%w: between 0 and auto_post_confidence (0: the model's)", errInvalid))
	}
	if (c.HTTP.TLSCert == "") != (c.HTTP.TLSKey == "") {
		return fail("http.tls_cert/tls_key", fmt.Errorf("%w: set both or neither", errInvalid))
	}
	if c.Bot.MaxPerTopic < 1 || c.Bot.HourlyBudget < 1 {
		return fail("bot.max_posts_per_topic/hourly_budget", fmt.Errorf("%w: at least 1", errInvalid))
	}
	for id, v := range c.Bot.CategoryAutoPost {
		if v < 0 || v > 1 {
			return fail(fmt.Sprintf("bot.category_auto_post_confidence[%d]", id), fmt.Errorf("%w: between 0 and 1", errInvalid))
		}
	}
	if c.Bot.MaxReplyChars < 0 || c.Bot.MaxReplyChars > 32000 {
		return fail("bot.max_reply_chars", fmt.Errorf("%w: at most 32000 (Discourse's limit)", errInvalid))
	}
	if c.Store.Path == "" {
		return fail("store.path", errRequired)
	}
	if c.Webhook.Secret != "" && len(c.Webhook.Secret) < 12 {
		return fail("webhook.secret", fmt.Errorf("%w: Discourse requires 12 characters or more", errInvalid))
	}
	if c.Admin.BaseURL != "" {
		if u, err := url.Parse(c.Admin.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fail("admin.base_url", fmt.Errorf("%w: %q is not an http(s) URL", errInvalid, c.Admin.BaseURL))
		}
	}
	if !strings.HasPrefix(c.Webhook.Path, "/") {
		return fail("webhook.path", fmt.Errorf("%w: must start with /", errInvalid))
	}
	switch c.Log.Level {
	case "debug", "info", "warn", "error":
	default:
		return fail("log.level", fmt.Errorf("%w: %q", errInvalid, c.Log.Level))
	}
	return nil
}
