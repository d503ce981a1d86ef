package importer

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/heraldbot/herald/github"
	"github.com/heraldbot/herald/store"
)

// GitHubSource is one repository whose issues are kept in the knowledge
// base.
type GitHubSource struct {
	Repo     string   `yaml:"repo"`
	Labels   []string `yaml:"labels"`
	State    string   `yaml:"state"`
	Schedule string   `yaml:"schedule"` // cron; empty: import at start only
}

// ImportGitHub imports (or refreshes) a repository's issues and says what
// it did. A full import (since zero) revalidates with the ETag of the
// previous full import of the same query, so an unchanged repository
// costs one request.
func ImportGitHub(ctx context.Context, db *store.DB, c *github.Client, src GitHubSource, since time.Time) (string, error) {
	key := "github:etag:" + src.Repo + ":" + strings.Join(src.Labels, ",") + ":" + src.State
	etag, err := db.Setting(ctx, key)
	if err != nil {
		return "", err
	}
	if !since.IsZero() {
		etag = "" // a different query
	}
	res, err := c.ListIssues(ctx, src.Repo, github.ListOptions{Labels: src.Labels, State: src.State, Since: since, ETag: etag})
	if err != nil {
		return "", err
	}
	if res.NotModified {
		return src.Repo + ": not modified since the last import", nil
	}
	for i := range res.Issues {
		res.Issues[i].Repo = src.Repo
	}
	st, err := importIssues(ctx, db, res.Issues, nil)
	if err != nil {
		return "", err
	}
	if since.IsZero() && res.ETag != "" {
		if err := db.SetSetting(ctx, key, res.ETag); err != nil {
			return "", err
		}
	}
	return fmt.Sprintf("%s: %d issues in %d pages: %s", src.Repo, len(res.Issues), res.Pages, st), nil
}
