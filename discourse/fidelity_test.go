package discourse_test

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/heraldbot/herald/discourse/discoursetest"
)

// These pin behaviours of the fake forum to the Discourse source they
// follow (discourse/discourse), so that Herald's tests cannot pass on a
// difference from the real server.

func fidelityForum(t *testing.T) (*discoursetest.Server, *discoursetest.Demo) {
	t.Helper()
	srv := discoursetest.New(discoursetest.WithRateLimit(0))
	t.Cleanup(srv.Close)
	return srv, srv.Seed("herald")
}

func call(t *testing.T, method, url, contentType string, body io.Reader, headers map[string]string) (int, map[string]any) {
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
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

var asAlice = map[string]string{"Api-Key": discoursetest.AdminAPIKey, "Api-Username": "alice"}

// Rails merges the query string with a form, multipart or JSON body
// (ActionDispatch params; posts_controller.rb reads params[:raw]).
func TestFakeAcceptsEveryParameterEncoding(t *testing.T) {
	srv, demo := fidelityForum(t)
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
	resp, err := http.DefaultClient.Do(req)
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
