package service

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// parseExample parses config.example.yaml with the API key in the
// environment.
func parseExample(t *testing.T, apiKey string) *Config {
	t.Helper()
	f, err := os.Open("../config.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := Parse(f, func(k string) string { return map[string]string{"HERALD_DISCOURSE_API_KEY": apiKey}[k] })
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestExampleConfigParses(t *testing.T) {
	t.Parallel()
	c := parseExample(t, "k-from-env")
	if c.Bot.Mode != "shadow" || c.Discourse.APIKey != "k-from-env" || c.Bot.PollInterval.D().Seconds() != 30 || c.Store.Path != "herald.db" {
		t.Errorf("config = %+v", c)
	}
}

func TestConfigErrorsNameTheField(t *testing.T) {
	t.Parallel()
	env := func(string) string { return "" }
	base := "discourse:\n  url: https://forum.example.org\n  api_key: k\n"
	tests := map[string]struct{ yaml, field string }{
		"missing url":  {"discourse:\n  api_key: k\n", "discourse.url"},
		"bad url":      {"discourse:\n  url: forum\n  api_key: k\n", "discourse.url"},
		"missing key":  {"discourse:\n  url: https://f.org\n", "discourse.api_key"},
		"bad mode":     {base + "bot:\n  mode: yolo\n", "bot.mode"},
		"fast poll":    {base + "bot:\n  poll_interval: 10ms\n", "bot.poll_interval"},
		"floor":        {base + "bot:\n  auto_post_confidence: 0.8\n  queue_floor: 0.9\n", "bot.queue_floor"},
		"floor range":  {base + "bot:\n  queue_floor: 1.5\n", "bot.queue_floor"},
		"plain http":   {"discourse:\n  url: http://forum.example.com\n  api_key: k\n", "discourse.url"},
		"short secret": {base + "webhook:\n  secret: short\n", "webhook.secret"},
		"log level":    {base + "log:\n  level: loud\n", "log.level"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(tt.yaml), env)
			var ve *ValidationError
			if !errors.As(err, &ve) || ve.Field != tt.field {
				t.Errorf("error %v, want a ValidationError on %s", err, tt.field)
			}
		})
	}
	_, err := Parse(strings.NewReader(base+"bot:\n  moed: auto\n"), env)
	if err == nil || !strings.Contains(err.Error(), "moed") {
		t.Errorf("unknown key: %v", err)
	}
	_, err = Parse(strings.NewReader(base+"bot:\n  poll_interval: soon\n"), env)
	if err == nil {
		t.Error("bad duration accepted")
	}
	c, err := Parse(strings.NewReader(base), func(k string) string {
		if k == "HERALD_BOT_MODE" {
			return "auto"
		}
		return ""
	})
	if err != nil || c.Bot.Mode != "auto" {
		t.Errorf("env override: %+v %v", c, err)
	}
}

func FuzzParseConfig(f *testing.F) {
	f.Add("discourse:\n  url: https://f.org\n  api_key: k\nbot:\n  mode: auto\n")
	f.Add("bot: [1, 2]\n")
	f.Fuzz(func(t *testing.T, in string) {
		c, err := Parse(strings.NewReader(in), func(string) string { return "" })
		if err == nil && (c.Discourse.URL == "" || c.Discourse.APIKey == "") {
			t.Errorf("accepted a config without url or key: %+v", c.Discourse)
		}
		if err != nil && strings.Contains(err.Error(), "k3y-s3cret") {
			t.Error("an error echoes the API key")
		}
	})
}

// TestConfigErrorsInPlainWords: a typo names the key, its line and the
// nearest valid key; a duration without a unit names the field; neither
// prints a Go type.
func TestConfigErrorsInPlainWords(t *testing.T) {
	t.Parallel()
	env := func(string) string { return "" }
	base := "discourse:\n  url: https://forum.example.org\n  api_key: k\n"
	for in, want := range map[string]string{
		base + "bot:\n  pol_interval: 30s\n":         "config line 5: unknown key bot.pol_interval (did you mean bot.poll_interval?)",
		base + "bot:\n  poll_interval: 5\n":          `config line 5: bot.poll_interval: "5" is not a duration; write it with a unit, e.g. 5s`,
		base + "sweeps:\n  digest:\n    perod: 1h\n": "config line 6: unknown key sweeps.digest.perod (did you mean sweeps.digest.period?)",
		"discorse:\n  url: x\n":                      "config line 1: unknown key discorse (did you mean discourse?)",
	} {
		_, err := Parse(strings.NewReader(in), env)
		if err == nil || err.Error() != want || strings.Contains(err.Error(), "struct") {
			t.Errorf("error %v,\nwant %s", err, want)
		}
	}
}

// TestExampleConfigStatesTheDefaults: the numbers config.example.yaml
// shows are the defaults a config without them gets, so the example
// cannot drift from DefaultOptions and the engine's reply cap.
func TestExampleConfigStatesTheDefaults(t *testing.T) {
	t.Parallel()
	c := parseExample(t, "k")
	d := Default()
	for name, pair := range map[string][2]any{
		"bot.mode":                          {c.Bot.Mode, d.Bot.Mode},
		"bot.poll_interval":                 {c.Bot.PollInterval, d.Bot.PollInterval},
		"bot.max_reply_chars":               {c.Bot.MaxReplyChars, d.Bot.MaxReplyChars},
		"bot.max_posts_per_topic":           {c.Bot.MaxPerTopic, d.Bot.MaxPerTopic},
		"bot.hourly_budget":                 {c.Bot.HourlyBudget, d.Bot.HourlyBudget},
		"bot.max_mentions_per_user_per_day": {c.Bot.MaxMentionsPerUser, d.Bot.MaxMentionsPerUser},
		"bot.auto_post_confidence":          {c.Bot.AutoPost, d.Bot.AutoPost},
		"bot.queue_floor":                   {c.Bot.QueueFloor, d.Bot.QueueFloor},
	} {
		if pair[0] != pair[1] {
			t.Errorf("%s: the example says %v, the default is %v", name, pair[0], pair[1])
		}
	}
}
