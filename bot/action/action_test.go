package action

import (
	"encoding/json"
	"errors"
	"testing"
)

// The payloads are the action log's stored format: what an earlier
// version wrote (here with a field this version does not know, and
// without the newer cited ids) must still decode.
func TestPayloadsDecodeStoredJSON(t *testing.T) {
	t.Parallel()
	stored := `{"trigger":"new_topic","topic_id":7,"topic_title":"OOM","category_id":2,"post_id":31,"post_number":1,
		"asker":"alice","draft":"Lower the memory.","decision":"reply","confidence":0.91,"matches":[{"id":"vllm-oom","url":"https://example.org/1","title":"OOM","score":3.5,"reasons":["exception"]}],
		"facts":{"platform":"rocm","versions":{"vllm":"0.24.0"}},"retired_field":true}`
	var r Reply
	if err := json.Unmarshal([]byte(stored), &r); err != nil {
		t.Fatal(err)
	}
	if r.TopicID != 7 || r.Asker != "alice" || len(r.Matches) != 1 || r.Matches[0].ID != "vllm-oom" || r.Facts.Platform != "rocm" || r.Facts.Versions["vllm"] != "0.24.0" || r.Cited != nil {
		t.Errorf("decoded %+v", r)
	}
	var teach Teach
	if err := json.Unmarshal([]byte(`{"source_action":4,"topic_id":7,"draft":"d","proposed_by":"maria"}`), &teach); err != nil || teach.SourceAction != 4 || teach.ProposedBy != "maria" {
		t.Errorf("teach = %+v, %v", teach, err)
	}
}

func TestDescribe(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		kind, payload, want string
	}{
		{KindReply, `{"topic_title":"OOM on ROCm"}`, "OOM on ROCm"},
		{KindTeach, `{"topic_title":"OOM on ROCm"}`, "Teach: OOM on ROCm"},
		{KindLearn, `{"topic_title":"NCCL hang"}`, "Learn from: NCCL hang"},
		{KindTag, `{"topic_title":"NCCL hang","add":["nccl","hang"]}`, "Tag nccl, hang: NCCL hang"},
		{KindDigest, `{"title":"Herald digest for 2026-11-30 00:00 UTC"}`, "Herald digest for 2026-11-30 00:00 UTC"},
		{KindReply, `not json`, ""},
	} {
		if got := Describe(c.kind, []byte(c.payload)); got != c.want {
			t.Errorf("Describe(%s, %s) = %q, want %q", c.kind, c.payload, got, c.want)
		}
	}
}

// TestEncodeDecodeEveryKind: each kind's payload records under its own
// kind and decodes back to the same type and description.
func TestEncodeDecodeEveryKind(t *testing.T) {
	t.Parallel()
	for _, p := range []Payload{
		Reply{TopicID: 1, TopicTitle: "OOM", Draft: "d"},
		Teach{SourceAction: 2, TopicTitle: "OOM"},
		Tag{TopicID: 3, TopicTitle: "hang", Add: []string{"nccl"}},
		Learn{TopicID: 4, TopicTitle: "hang"},
		Digest{Title: "Herald digest", Raw: "r"},
	} {
		kind, payload, err := Encode(p)
		if err != nil || kind != p.Kind() {
			t.Fatalf("Encode(%T) = %q, %v", p, kind, err)
		}
		back, err := Decode(kind, payload)
		if err != nil || back.Kind() != kind || back.Describe() != p.Describe() {
			t.Errorf("Decode(%s) = %#v, %v; want %#v", kind, back, err, p)
		}
	}
	if _, err := Decode("telepathy", []byte(`{}`)); !errors.Is(err, ErrUnknownKind) {
		t.Errorf("unknown kind: %v, want ErrUnknownKind", err)
	}
}
