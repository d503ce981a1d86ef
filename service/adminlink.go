package service

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/heraldbot/herald/bot/admin"
	"github.com/heraldbot/herald/discourse"
	"github.com/heraldbot/herald/store"
)

// AdminLink makes a one-time login link to the admin page for username,
// for forums without DiscourseConnect. It makes the same check as
// DiscourseConnect: the forum must know the user as staff or as a member
// of one of admin.groups.
func AdminLink(ctx context.Context, cfg *Config, db *store.DB, username string, ttl time.Duration) (string, error) {
	client, err := discourse.NewClient(cfg.Discourse.URL, discourse.WithAPIKey(cfg.Discourse.APIKey, cfg.Discourse.Username),
		discourse.WithTimeout(cfg.Discourse.Timeout.D()))
	if err != nil {
		return "", err
	}
	u, err := client.User(ctx, username)
	if errors.Is(err, discourse.ErrNotFound) {
		return "", fmt.Errorf("admin-link: the forum has no user %q", username)
	}
	if err != nil {
		return "", fmt.Errorf("admin-link: look up %q on the forum: %w", username, err)
	}
	if !u.Staff() && !u.InGroup(cfg.Admin.Groups...) {
		return "", fmt.Errorf("admin-link: %s is neither staff nor in admin.groups %v on the forum", u.Username, cfg.Admin.Groups)
	}
	return admin.NewLoginLink(ctx, db, cfg.AdminBaseURL()+"/admin", u.Username, ttl)
}
