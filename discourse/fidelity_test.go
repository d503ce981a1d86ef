package discourse_test

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/heraldbot/herald/discourse/discoursetest"
)

// These pin behaviours of the fake forum to the Discourse source they
// follow (discourse/discourse), so that Herald's tests cannot pass on a
// difference from the real server.

func fidelityForum(t *testing.T, opts ...discoursetest.Option) (*discoursetest.Server, *discoursetest.Demo) {
	t.Helper()
	srv := discoursetest.New(append([]discoursetest.Option{discoursetest.WithRateLimit(0)}, opts...)...)
	t.Cleanup(srv.Close)
	return srv, srv.Seed("herald")
}

func call(t *testing.T, method, url, contentType string, body io.Reader, headers map[string]string) (int, map[string]any) {
	t.Helper()
	code, out, _ := callWithHeader(t, method, url, contentType, body, headers)
	return code, out
}

// callWithHeader is call that also returns the response's header.
func callWithHeader(t *testing.T, method, url, contentType string, body io.Reader, headers map[string]string) (int, map[string]any, http.Header) {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := discoursetest.Client(t.Cleanup).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out, resp.Header
}

var asAlice = map[string]string{"Api-Key": discoursetest.AdminAPIKey, "Api-Username": "alice"}

// Rails merges the query string with a form, multipart or JSON body
// (ActionDispatch params; posts_controller.rb reads params[:raw]).
func TestFakeAcceptsEveryParameterEncoding(t *testing.T) {
	t.Parallel()
	unlimited := discoursetest.DefaultSiteSettings()
	unlimited.RateLimitCreatePost = 0
	srv, demo := fidelityForum(t, discoursetest.WithSiteSettings(unlimited))
	raw := "A reply that is long enough to pass the validators."
	jsonBody, _ := json.Marshal(map[string]any{"topic_id": demo.OOMTopic.ID, "raw": raw + " (json)"})
	if code, out := call(t, "POST", srv.URL+"/posts.json", "application/json", bytes.NewReader(jsonBody), asAlice); code != 200 || out["id"] == nil {
		t.Errorf("JSON body: %d %v", code, out)
	}
	var mp bytes.Buffer
	w := multipart.NewWriter(&mp)
	_ = w.WriteField("topic_id", itoa(demo.OOMTopic.ID))
	_ = w.WriteField("raw", raw+" (multipart)")
	_ = w.Close()
	if code, out := call(t, "POST", srv.URL+"/posts.json", w.FormDataContentType(), &mp, asAlice); code != 200 || out["id"] == nil {
		t.Errorf("multipart body: %d %v", code, out)
	}
	q := "?topic_id=" + itoa(demo.OOMTopic.ID) + "&raw=" + strings.ReplaceAll(raw+" (query)", " ", "+")
	if code, out := call(t, "POST", srv.URL+"/posts.json"+q, "", nil, asAlice); code != 200 || out["id"] == nil {
		t.Errorf("query string: %d %v", code, out)
	}
}

// A present but blank raw fails post_validator.rb (422, {action, errors});
// a reply to a missing topic fails post_creator.rb the same way.
func TestFakeValidationFailuresAre422(t *testing.T) {
	t.Parallel()
	srv, demo := fidelityForum(t)
	for name, form := range map[string]string{
		"blank raw":     "topic_id=" + itoa(demo.OOMTopic.ID) + "&raw=+++",
		"missing topic": "topic_id=999999&raw=" + strings.Repeat("x", 30),
	} {
		code, out := call(t, "POST", srv.URL+"/posts.json", "application/x-www-form-urlencoded", strings.NewReader(form), asAlice)
		if code != 422 || out["action"] != "create_post" || out["errors"] == nil {
			t.Errorf("%s: %d %v, want 422 {action: create_post, errors}", name, code, out)
		}
	}
}

// whisper=1 is true as ActiveModel::Type::Boolean casts it
// (posts_controller.rb, create params).
func TestFakeCastsWhisperLikeRails(t *testing.T) {
	t.Parallel()
	srv, demo := fidelityForum(t)
	form := "topic_id=" + itoa(demo.OOMTopic.ID) + "&whisper=1&raw=" + strings.Repeat("staff only ", 5)
	code, out := call(t, "POST", srv.URL+"/posts.json", "application/x-www-form-urlencoded", strings.NewReader(form),
		map[string]string{"Api-Key": discoursetest.BotAPIKey, "Api-Username": "herald"})
	if code != 200 || out["post_type"] != float64(4) {
		t.Errorf("whisper=1: %d post_type %v, want a whisper (4)", code, out["post_type"])
	}
}

// Api-User-Id names the user by id (lib/auth/default_current_user_provider.rb).
func TestFakeAcceptsApiUserID(t *testing.T) {
	t.Parallel()
	srv, demo := fidelityForum(t)
	code, out := call(t, "GET", srv.URL+"/session/current.json", "", nil,
		map[string]string{"Api-Key": discoursetest.AdminAPIKey, "Api-User-Id": itoa(demo.Bob.ID)})
	cu, _ := out["current_user"].(map[string]any)
	if code != 200 || cu["username"] != "bob" {
		t.Errorf("Api-User-Id: %d %v", code, out)
	}
}

// The topic view and topic posts carry raw only with include_raw
// (topics_controller.rb sets the serializer's include_raw from the
// parameter); /t/{id}/posts.json without post_ids[] is the first chunk
// (lib/topic_view.rb); a reply names the user it answers (post_serializer.rb
// reply_to_user).
func TestFakeTopicSerialisation(t *testing.T) {
	t.Parallel()
	srv, demo := fidelityForum(t)
	if _, err := srv.Reply("bob", demo.OOMTopic.ID, "Same here, with the same settings on an RX 7900.", 1); err != nil {
		t.Fatal(err)
	}
	admin := map[string]string{"Api-Key": discoursetest.AdminAPIKey, "Api-Username": "admin"}
	posts := func(out map[string]any) []any {
		ps, _ := out["post_stream"].(map[string]any)
		list, _ := ps["posts"].([]any)
		return list
	}
	_, view := call(t, "GET", srv.URL+"/t/"+itoa(demo.OOMTopic.ID)+".json", "", nil, admin)
	for _, p := range posts(view) {
		if _, ok := p.(map[string]any)["raw"]; ok {
			t.Error("topic view without include_raw carries raw")
		}
	}
	_, view = call(t, "GET", srv.URL+"/t/"+itoa(demo.OOMTopic.ID)+".json?include_raw=1", "", nil, admin)
	list := posts(view)
	if len(list) < 2 || list[0].(map[string]any)["raw"] == nil {
		t.Fatalf("topic view with include_raw: %v", list)
	}
	if ru, _ := list[1].(map[string]any)["reply_to_user"].(map[string]any); ru["username"] != "alice" {
		t.Errorf("reply_to_user = %v, want alice", list[1].(map[string]any)["reply_to_user"])
	}
	_, chunk := call(t, "GET", srv.URL+"/t/"+itoa(demo.OOMTopic.ID)+"/posts.json", "", nil, admin)
	if len(posts(chunk)) < 2 {
		t.Errorf("/t/{id}/posts.json without post_ids[]: %d posts, want the first chunk", len(posts(chunk)))
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// Routes Discourse serves (config/routes.rb) and how they answer.
func TestFakeRoutes(t *testing.T) {
	t.Parallel()
	srv, demo := fidelityForum(t)
	admin := map[string]string{"Api-Key": discoursetest.AdminAPIKey, "Api-Username": "admin"}
	id := itoa(demo.OOMTopic.ID)
	for _, path := range []string{"/t/" + demo.OOMTopic.Slug + "/" + id + ".json", "/t/" + id + "/1.json", "/t/" + id + ".json?page=1"} {
		if code, out := call(t, "GET", srv.URL+path, "", nil, admin); code != 200 || out["id"] == nil {
			t.Errorf("GET %s: %d", path, code)
		}
	}
	if code, out := call(t, "GET", srv.URL+"/t/"+id+"/post_ids.json", "", nil, admin); code != 200 || out["post_ids"] == nil {
		t.Errorf("post_ids: %d %v", code, out)
	}
	if code, out := call(t, "GET", srv.URL+"/posts/by_number/"+id+"/1.json", "", nil, admin); code != 200 || out["post_number"] != float64(1) {
		t.Errorf("by_number: %d %v", code, out)
	}
	req, _ := http.NewRequest("GET", srv.URL+"/posts/1/raw", nil)
	req.Header.Set("Api-Key", discoursetest.AdminAPIKey)
	req.Header.Set("Api-Username", "admin")
	resp, err := discoursetest.Client(t.Cleanup).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(raw), "DiffusionGemma") || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
		t.Errorf("/posts/1/raw: %d %q", resp.StatusCode, raw)
	}
	// Page 2 of a short topic is empty, not the first page again.
	if _, out := call(t, "GET", srv.URL+"/t/"+id+".json?page=2", "", nil, admin); len(out["post_stream"].(map[string]any)["posts"].([]any)) != 0 {
		t.Error("?page=2 of a one-page topic repeats the first page")
	}
}

// Notifications: one's own only, unless admin (notifications_controller.rb);
// a mention inside a whisper alerts only staff (post_alerter.rb).
func TestFakeNotificationVisibility(t *testing.T) {
	t.Parallel()
	srv, demo := fidelityForum(t)
	code, _ := call(t, "GET", srv.URL+"/notifications.json?username=bob", "", nil, asAlice)
	if code != 403 {
		t.Errorf("alice reading bob's notifications: %d, want 403", code)
	}
	form := "topic_id=" + itoa(demo.OOMTopic.ID) + "&whisper=true&raw=" + strings.ReplaceAll("@bob and @maria, staff only note here", " ", "+")
	if code, _ := call(t, "POST", srv.URL+"/posts.json", "application/x-www-form-urlencoded", strings.NewReader(form),
		map[string]string{"Api-Key": discoursetest.BotAPIKey, "Api-Username": "herald"}); code != 200 {
		t.Fatalf("whisper: %d", code)
	}
	count := func(user string) int {
		_, out := call(t, "GET", srv.URL+"/notifications.json", "", nil, map[string]string{"Api-Key": discoursetest.AdminAPIKey, "Api-Username": user})
		list, _ := out["notifications"].([]any)
		return len(list)
	}
	if count("bob") != 0 || count("maria") != 1 {
		t.Errorf("whisper mentions: bob %d (want 0), maria %d (want 1)", count("bob"), count("maria"))
	}
}

func form(kv ...string) io.Reader {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	return strings.NewReader(v.Encode())
}

const formType = "application/x-www-form-urlencoded"

// Non-staff posters meet Discourse's create limits: one post per
// rate_limit_create_post (5 s; 30 s at trust level 0) and one topic per
// rate_limit_create_topic (15 s), answered as RateLimiter::LimitExceeded
// (lib/rate_limiter/on_create_record.rb, application_controller.rb);
// staff are not limited (lib/rate_limiter.rb rate_unlimited?).
func TestFakePerUserCreateLimits(t *testing.T) {
	t.Parallel()
	clock := discoursetest.NewClock(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	srv, demo := fidelityForum(t, discoursetest.WithClock(clock.Now))
	srv.AddUser(discoursetest.User{Username: "newbie", TrustLevel: 0})
	as := func(user string) map[string]string {
		return map[string]string{"Api-Key": discoursetest.AdminAPIKey, "Api-Username": user}
	}
	reply := func(user, raw string) (int, map[string]any, http.Header) {
		return callWithHeader(t, "POST", srv.URL+"/posts.json", formType, form("topic_id", itoa(demo.OOMTopic.ID), "raw", raw), as(user))
	}
	if code, out, _ := reply("alice", "First reply from alice, long enough."); code != 200 {
		t.Fatalf("first reply: %d %v", code, out)
	}
	code, out, h := reply("alice", "Second reply from alice, right away.")
	if code != 429 || out["error_type"] != "rate_limit" || h.Get("Retry-After") != "5" {
		t.Errorf("second reply within 5 s: %d %v Retry-After=%q, want 429 rate_limit with Retry-After 5", code, out, h.Get("Retry-After"))
	}
	if extras, _ := out["extras"].(map[string]any); extras["wait_seconds"] != float64(5) {
		t.Errorf("extras = %v, want wait_seconds 5", out["extras"])
	}
	clock.Advance(5 * time.Second)
	if code, out, _ := reply("alice", "Second reply from alice, after waiting."); code != 200 {
		t.Errorf("after the wait: %d %v", code, out)
	}
	if code, out, _ := reply("newbie", "A new user's first reply, long enough."); code != 200 {
		t.Fatalf("newbie first reply: %d %v", code, out)
	}
	clock.Advance(10 * time.Second)
	if code, _, h := reply("newbie", "A new user's second reply, ten seconds on."); code != 429 || h.Get("Retry-After") != "20" {
		t.Errorf("trust level 0 after 10 s: %d Retry-After=%q, want 429 with 20", code, h.Get("Retry-After"))
	}
	for i := range 3 {
		if code, out, _ := reply(demo.Bot.Username, "A staff reply, number "+itoa(i)+", back to back."); code != 200 {
			t.Errorf("staff reply %d: %d %v (staff are not limited)", i, code, out)
		}
	}
	topic := func(user, title string) int {
		code, _ := call(t, "POST", srv.URL+"/posts.json", formType, form("title", title, "raw", "Body of "+title+", long enough to pass.", "category", itoa(demo.Support.ID)), as(user))
		return code
	}
	clock.Advance(time.Minute)
	if code := topic("alice", "A first topic from alice"); code != 200 {
		t.Fatalf("first topic: %d", code)
	}
	clock.Advance(6 * time.Second)
	if code := topic("alice", "A second topic from alice"); code != 429 {
		t.Errorf("second topic after 6 s: %d, want 429 (15 s between topics)", code)
	}
}

// Post validators refuse, for non-staff, the same body from the same user
// within unique_posts_mins (whitespace and case ignored; PMs exempt;
// lib/validators/post_validator.rb unique_post_validator, app/models/post.rb
// unique_post_key), and for everyone a topic title shorter than
// min_topic_title_length or already used (app/models/topic.rb).
func TestFakePostValidators(t *testing.T) {
	t.Parallel()
	clock := discoursetest.NewClock(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	srv, demo := fidelityForum(t, discoursetest.WithClock(clock.Now))
	create := func(user string, kv ...string) (int, map[string]any) {
		clock.Advance(time.Minute) // clear of the rate limits
		return call(t, "POST", srv.URL+"/posts.json", formType, form(kv...),
			map[string]string{"Api-Key": discoursetest.AdminAPIKey, "Api-Username": user})
	}
	body := "The same words, posted twice by one user."
	if code, out := create("alice", "topic_id", itoa(demo.OOMTopic.ID), "raw", body); code != 200 {
		t.Fatalf("first: %d %v", code, out)
	}
	code, out := create("alice", "topic_id", itoa(demo.OOMTopic.ID), "raw", "  THE SAME words,\nposted twice by one user.")
	if code != 422 || !contains(out["errors"], "Body is too similar to what you recently posted") {
		t.Errorf("duplicate body: %d %v, want 422 just_posted_that", code, out)
	}
	if out["action"] != "create_post" {
		t.Errorf("duplicate body: action = %v, want create_post", out["action"])
	}
	if code, out := create(demo.Bot.Username, "topic_id", itoa(demo.OOMTopic.ID), "raw", body); code != 200 {
		t.Errorf("staff, same body as alice: %d %v", code, out)
	}
	if code, out := create(demo.Bot.Username, "topic_id", itoa(demo.OOMTopic.ID), "raw", body); code != 200 {
		t.Errorf("staff, same body twice: %d %v (staff skip the check)", code, out)
	}
	clock.Advance(5 * time.Minute)
	if code, out := create("alice", "topic_id", itoa(demo.OOMTopic.ID), "raw", body); code != 200 {
		t.Errorf("same body after unique_posts_mins: %d %v", code, out)
	}
	code, out = create("alice", "title", "Too short", "raw", "A body that is long enough to pass.", "category", itoa(demo.Support.ID))
	if code != 422 || !contains(out["errors"], "Title is too short (minimum is 15 characters)") {
		t.Errorf("short title: %d %v", code, out)
	}
	title := demo.OOMTopic.Title
	code, out = create("alice", "title", strings.ToUpper(title), "raw", "A body that is long enough to pass.", "category", itoa(demo.Support.ID))
	if code != 422 || !contains(out["errors"], "Title has already been used") {
		t.Errorf("reused title: %d %v", code, out)
	}
	if code, out := create("alice", "title", title, "raw", "A private note, long enough to pass.", "archetype", "private_message", "target_recipients", demo.Bot.Username); code != 200 {
		t.Errorf("private message with a used title: %d %v (PMs are exempt)", code, out)
	}
}

func contains(list any, want string) bool {
	items, _ := list.([]any)
	for _, it := range items {
		if it == want {
			return true
		}
	}
	return false
}

// Missing and deleted records are 404 not_found (Discourse::NotFound);
// records that exist but Guardian hides, a whisper for a non-staff user or
// a private message one is not in, are 403 invalid_access
// (ensure_can_see!, application_controller.rb rescue_discourse_actions).
// Staff still open a deleted topic, which then carries deleted_at
// (lib/topic_view.rb with_deleted).
func TestFakeErrorShapes(t *testing.T) {
	t.Parallel()
	srv, demo := fidelityForum(t)
	whisper, err := srv.Whisper(demo.Bot.Username, demo.OOMTopic.ID, "A staff whisper about this topic.")
	if err != nil {
		t.Fatal(err)
	}
	pm, _, err := srv.CreatePrivateMessage("bob", "A private note for maria", "Only maria and bob see this message.", "maria")
	if err != nil {
		t.Fatal(err)
	}
	gone, _, _ := srv.CreateTopic("bob", demo.Support.ID, "A topic that will be deleted soon", "This topic is deleted by staff right away.")
	srv.DeleteTopic(gone.ID)
	admin := map[string]string{"Api-Key": discoursetest.AdminAPIKey, "Api-Username": "admin"}
	for _, c := range []struct {
		name, path string
		as         map[string]string
		code       int
		errorType  string
	}{
		{"missing post", "/posts/999999.json", asAlice, 404, "not_found"},
		{"whisper, non-staff", "/posts/" + itoa(whisper.ID) + ".json", asAlice, 403, "invalid_access"},
		{"whisper, staff", "/posts/" + itoa(whisper.ID) + ".json", admin, 200, ""},
		{"private message, outsider", "/t/" + itoa(pm.ID) + ".json", asAlice, 403, "invalid_access"},
		{"private message, its posts, outsider", "/t/" + itoa(pm.ID) + "/posts.json", asAlice, 403, "invalid_access"},
		{"private message, staff", "/t/" + itoa(pm.ID) + ".json", admin, 200, ""},
		{"missing topic", "/t/999999.json", asAlice, 404, "not_found"},
		{"deleted topic, non-staff", "/t/" + itoa(gone.ID) + ".json", asAlice, 404, "not_found"},
	} {
		code, out := call(t, "GET", srv.URL+c.path, "", nil, c.as)
		if code != c.code || c.errorType != "" && (out["error_type"] != c.errorType || out["errors"] == nil) {
			t.Errorf("%s: %d %v, want %d %s", c.name, code, out, c.code, c.errorType)
		}
	}
	code, out := call(t, "GET", srv.URL+"/t/"+itoa(gone.ID)+".json", "", nil, admin)
	if code != 200 || out["deleted_at"] == nil {
		t.Errorf("deleted topic, staff: %d deleted_at=%v, want 200 with deleted_at", code, out["deleted_at"])
	}
}

// Topic lists take ascending=true (lib/topic_query.rb); /c/{slug}/{id}/l/latest
// is the category's latest list (config/routes.rb); the extensionless URLs
// the forum hands out answer JSON to Accept: application/json.
func TestFakeListsAndExtensionlessURLs(t *testing.T) {
	t.Parallel()
	srv, demo := fidelityForum(t)
	titles := func(out map[string]any) []string {
		list, _ := out["topic_list"].(map[string]any)
		items, _ := list["topics"].([]any)
		var ts []string
		for _, it := range items {
			ts = append(ts, it.(map[string]any)["title"].(string))
		}
		return ts
	}
	_, desc := call(t, "GET", srv.URL+"/latest.json?order=created", "", nil, asAlice)
	_, asc := call(t, "GET", srv.URL+"/latest.json?order=created&ascending=true", "", nil, asAlice)
	d, a := titles(desc), titles(asc)
	if len(d) < 2 || len(d) != len(a) || d[0] != a[len(a)-1] || a[0] != demo.OOMTopic.Title {
		t.Errorf("ascending: %q, descending: %q", a, d)
	}
	cat := "/c/" + demo.Support.Slug + "/" + itoa(demo.Support.ID)
	_, plain := call(t, "GET", srv.URL+cat+".json", "", nil, asAlice)
	code, latest := call(t, "GET", srv.URL+cat+"/l/latest.json", "", nil, asAlice)
	if code != 200 || len(titles(latest)) == 0 || strings.Join(titles(latest), "|") != strings.Join(titles(plain), "|") {
		t.Errorf("category latest: %d %q, want the category list %q", code, titles(latest), titles(plain))
	}
	jsonAccept := map[string]string{"Api-Key": discoursetest.AdminAPIKey, "Api-Username": "alice", "Accept": "application/json"}
	for _, path := range []string{"/latest?page=0", "/notifications?offset=0&username=alice", "/t/" + demo.OOMTopic.Slug + "/" + itoa(demo.OOMTopic.ID) + "/1", cat} {
		if code, out := call(t, "GET", srv.URL+path, "", nil, jsonAccept); code != 200 || out == nil {
			t.Errorf("GET %s with Accept JSON: %d %v", path, code, out)
		}
	}
}

// PUT /posts/{id}.json edits post[raw] for the author or staff and
// answers {"post": …}; others get 403, a stale post[original_text] 409
// (posts_controller.rb#update, guardian ensure_can_edit!).
func TestFakeEditsPosts(t *testing.T) {
	t.Parallel()
	srv, demo := fidelityForum(t)
	first := srv.Posts(demo.OOMTopic.ID)[0]
	path := srv.URL + "/posts/" + itoa(first.ID) + ".json"
	edited := "Edited: the command and the error are below, as before."
	code, out := call(t, "PUT", path, formType, form("post[raw]", edited), asAlice)
	if post, _ := out["post"].(map[string]any); code != 200 || post["raw"] != edited {
		t.Errorf("author edit: %d %v", code, out)
	}
	asBob := map[string]string{"Api-Key": discoursetest.AdminAPIKey, "Api-Username": "bob"}
	if code, out := call(t, "PUT", path, formType, form("post[raw]", "Bob should not be able to edit this."), asBob); code != 403 || out["error_type"] != "invalid_access" {
		t.Errorf("another user's edit: %d %v, want 403", code, out)
	}
	if code, _ := call(t, "PUT", path, formType, form("post[raw]", "A second edit that races the first.", "post[original_text]", "stale text"), asAlice); code != 409 {
		t.Errorf("stale original_text: %d, want 409", code)
	}
	if code, _ := call(t, "PUT", path, formType, form("raw", "No post[raw] parameter at all here."), asAlice); code != 400 {
		t.Errorf("missing post[raw]: %d, want 400", code)
	}
	if got := srv.Posts(demo.OOMTopic.ID)[0].Raw; got != edited {
		t.Errorf("stored raw = %q, want the author's edit", got)
	}
}
