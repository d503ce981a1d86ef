package knowledge

import (
	"regexp"
	"slices"
	"strings"
)

// Decision is what Herald does with a post.
type Decision string

const (
	// DecisionReply: the evidence is strong enough to answer.
	DecisionReply Decision = "reply"
	// DecisionAbstain: a real question, but nothing known fits well enough;
	// say nothing (the bot may queue it for staff).
	DecisionAbstain Decision = "abstain"
	// DecisionIgnore: not a support question (announcement, feature
	// request, chit-chat).
	DecisionIgnore Decision = "ignore"
)

// Thresholds turn confidence into decisions.
type Thresholds struct {
	// Reply is the minimum confidence to answer at all.
	Reply float64
	// CiteRelevance: further matches are cited when the model holds them
	// at least this likely to fit the post (0.5: more likely than not).
	CiteRelevance float64
	// MaxCitations bounds the Sources list.
	MaxCitations int
}

// DefaultThresholds are the embedded model's reply threshold and the
// citation rules.
func DefaultThresholds() Thresholds {
	return Thresholds{Reply: DefaultModel().Reply, CiteRelevance: 0.5, MaxCitations: 4}
}

// Confidence is a match's calibrated confidence, set by the Model: the
// estimated chance that staff would accept the match as the top citation.
// The README's reliability table shows how well it tracks that on
// held-out labelled posts.
func Confidence(m Match) float64 { return m.Confidence }

var (
	// nonSupportTitleRE is a title that says the post asks for no help:
	// a request, an announcement, release notes, a change ("[Misc] Add
	// tqdm progress bar", the prefix of a pull request's title), or
	// the same tag without brackets, as production-stack's templates
	// write it ("feature: helm chart env variable support VLLM_USE_V1",
	// vllm-project/production-stack#709 and #356). The
	// issue template's "[Misc]: " (with its colon) is not among them:
	// vLLM's and vllm-ascend's "anything you want to discuss" template
	// holds questions ("[Misc]: How to use a chat template to be applied
	// ?", vllm-project/vllm#12423) and pasted tracebacks
	// (vllm-project/vllm-ascend#707) as often as anything else, so the
	// post's own content decides.
	nonSupportTitleRE = regexp.MustCompile(`(?i)^\s*\[misc\](?:[^:]|$)|^\s*\[(feature|rfc|roadmap|release|announcement|announce|news|meetup|proposal|discussion|new model)\]|^\s*(feature|rfc|roadmap)\s*:|^\s*(announcing|introducing|release notes?|v?\d+\.\d+(\.\d+)? (is )?(out|released))\b|\b(feature request|we are (happy|excited|pleased) to announce|is now available|welcome to|office hours|meetup|newsletter|weekly update)\b`)
	// problemRE is a post that says something is wrong or asks how:
	// problem words, "how do I", a question mark, and their Chinese
	// counterparts (问题, 报错, 无法, 如何, …), which need no word boundary,
	// among them the ways a Chinese question is asked without a question
	// mark: 请问 ("may I ask"), the particle 吗, 是否/能否 ("whether"),
	// 哪里/哪个 ("where", "which") — "vllm现在支持embedding输入吗"
	// (vllm-project/vllm#6128), "请问fastchat是否更新这两个参数"
	// (lm-sys/FastChat#3604). Kubernetes states a failed container in
	// words of its own: a pod in "CrashLoopBackOff" (kubectl get pods;
	// vllm-project/aibrix#1054, vllm-project/production-stack#454,
	// llm-d/llm-d-deployer#298) and a container "OOMKilled" at its memory
	// limit (mitchross/talos-argocd-proxmox#1766, rwlove/home-ops#13936).
	problemRE = regexp.MustCompile(`(?i)\b(crashloopbackoff|oomkill(ed|s)?|error|errors|fail(s|ed|ing|ure)?|crash(es|ed|ing)?|hang(s|ing)?|stuck|oom|out of memory|exception|traceback|bug|broken|not work(ing)?|doesn'?t|does not|don'?t|won'?t|can'?t|cannot|unable|how (do|does|can|to|should|would)|why|help|issue|problem|wrong|slow|killed|timeout|segfault|leak(s|ing)?|no effect|not honou?red|not [a-z]{3,}ed|isn'?t|aren'?t|stop(s|ped|ping)?|ignored|instead of|unexpected(ly)?|supposed to|can not|could not|couldn'?t|did not|didn'?t)\b|\?|问题|报错|错误|失败|无法|不能|异常|泄漏|泄露|崩溃|卡住|如何|怎么|为什么|为何|请问|吗|是否|能否|哪里|哪个`)
	// outputProblemRE is a complaint about what the model or the server
	// returns, a problem report without an error: "answers is noise",
	// "produces gibberish", "Garbled Tokens", "Inconsistent Responses",
	// "generate bad output", "memory leakage", "throughput regression",
	// "output repeated token" (#39827, #10600, #54490), "content loss",
	// "is lost" (#22885, #15274), "gives different results" (#7845,
	// #5404, #23794, #5793); no corpus feature request's title says one
	// of the last three.
	outputProblemRE = regexp.MustCompile(`(?i)\b(gibberish|garbled?|garbage|nonsens(e|ical)|noise|inconsistent|degenerate[ds]?|bad (output|outputs|results?|quality|responses?)|different (outputs?|results?|quality|responses?|answers?)|incorrect(ly)?|invalid|leak(age|s|ing)?|regression|degrad(ed|es|ation)|drops?|dropped|lost|loss|repeat(s|ed|ing)?|never|missing|empty)\b`)
	// errorWordingRE is a title that asks for better error messages
	// rather than for help with one: "Update a more user-friendly error
	// message …", "[V1] Misleading Error Messages", "NPU 上…的报错对用户不
	// 友好". Such posts paste the errors they want reworded, so they have to
	// be told apart by the title before the errors make them support.
	errorWordingRE = regexp.MustCompile(`(?i)\b(?:error|warning)\s+messages?\b[^.?!]{0,40}\b(?:(?:is|are)\s+)?(?:misleading|confusing|unclear|unhelpful|unfriendly|cryptic|not\s+(?:user[- ])?friendly)\b|\b(?:misleading|confusing|unclear|unhelpful|unfriendly|cryptic|user[- ]friendly|clearer|more\s+(?:helpful|informative|friendly|user[- ]friendly))\s+(?:error|warning)\s+messages?\b|(?:报错|错误信息|错误提示|提示信息)[^。？！?!]{0,20}不友好`)
	// asksRE is a title that asks for help in so many words: a question
	// mark, "how do I", "why". A title that complains of a confusing
	// error message and asks how to get past it is a support question.
	asksRE = regexp.MustCompile(`(?i)\?|\b(?:how (?:do|can|to|should)|why)\b`)
	// docTitleRE is the documentation template's tag. Unlike the other
	// non-support tags it is where many people ask how to do something or
	// paste the error they hit ("[Doc]: Is Qwen2.5's long context YARN
	// handled?", "[Doc]: ValueError: Model architectures […] are not
	// supported"), so it only marks a post as not support when neither
	// the title nor an error says otherwise.
	docTitleRE = regexp.MustCompile(`(?i)^\s*\[docs?\]`)
	// requestTemplateRE is a heading of a feature-request or RFC
	// template in the body: PyTorch's and vLLM's "🚀 The feature,
	// motivation and pitch" (which mem0 and others shorten to "🚀 The
	// feature"), GitHub's default "Is your feature request related to a
	// problem?" and "Describe the solution you'd like", vLLM's RFC
	// "Proposed Change.", and a "## Feature Request" heading; and the
	// templates of pull requests, which describe a change: vLLM's
	// ("Essential Elements of an Effective PR Description Checklist",
	// "## Purpose" then "## Test Plan": vllm-project/vllm#20210, #37878)
	// and Kubernetes' ("What type of PR is this?", "What this PR does /
	// why we need it": kubernetes-sigs/gateway-api-inference-extension#2487).
	requestTemplateRE = regexp.MustCompile(`(?im)^[\t ]*(?:#{1,6}[\t ]*)?(?:\*\*)?(?:🚀[\t ]*the feature\b|the feature, motivation and pitch|is your feature request related to a problem|describe the solution you'd like|proposed change\.|essential elements of an effective pr description|what type of pr is this\?|what this pr does / why we need it|which issue\(s\) this pr fixes)|(?im)^[\t ]*#{1,6}[\t ]*(?:🚀[\t ]*)?feature request[\t ]*$|(?ims)^[\t ]*#{1,6}[\t ]*purpose[\t ]*$.*^[\t ]*#{1,6}[\t ]*test plan[\t ]*$`)
	// supportTitleRE is an issue template's own word that the post asks
	// for help: "[Usage]: …", "[Bug]: …", "[Installation]: …".
	supportTitleRE = regexp.MustCompile(`(?i)^\s*\[(usage|bug|installation|question|help|performance)\]`)
	// requestTitleRE is a title that asks for a capability rather than
	// for help: an imperative "Support …", "Add …", "Allow …" after any
	// tag ("Allow customized runtimeClass in the helm chart",
	// vllm-project/production-stack#61; "[Bug]: Support Falcon Mamba",
	// corpus #7478), or a missing way to do something ("bug: the
	// VllmRuntime CRD has no way to raise the shm size",
	// production-stack#899). failureRE tells it from a report that the
	// capability fails.
	requestTitleRE = regexp.MustCompile(`(?i)^\s*(?:\[[^\]]{1,30}\]:?\s*|[a-z]{2,12}:\s*)?(?:please\s+)?(?:support|add|allow|enable|expose|make it possible)\b|\b(?:has|there is|there's|there are) no (?:way|option|setting|flag) to\b`)
	failureRE      = regexp.MustCompile(`(?i)\b(?:error|errors|fail(?:s|ed|ing|ure)?|crash(?:es|ed|ing)?|hang(?:s|ing)?|stuck|broken|not work(?:ing)?|doesn'?t|does not|don'?t|won'?t|can'?t|cannot|unable|wrong|why|how)\b|\?`)
	// bodyAsksRE is a body that asks something: a question mark, "how
	// do I", "why", or a Chinese question word.
	bodyAsksRE = regexp.MustCompile(`(?i)\?|\b(?:how (?:do|can|to|should)|why)\b|如何|怎么|为什么|为何|请问|吗|是否|能否`)
	// quietFailureRE is a failure a title states without a problem word:
	// an assertion quoted from the log ("v1 scheduler assert
	// num_new_tokens > 0", vllm#30320; #9128, #11562), something done
	// silently ("LoRA adapter … silently serves the base model", #55193;
	// #51198, #51396), not done ("… do not comply with …", #9019;
	// #20520, #15236; "Not able to deploy …", #16197, as "unable" is) or
	// broken by something ("Chat with n>1 breaks xgrammar", #11312;
	// #12451, #23244, #44000). No corpus feature request's title has any.
	quietFailureRE = regexp.MustCompile(`(?i)\b(?:assert(?:ion)?|silent(?:ly)?|do not|not able to|breaks|breaking)\b`)
	// askedRE is a request for an explanation or advice written without a
	// question mark, as forum posts end: "Can anyone explain the reason
	// for this discrepancy" (vllm-project/vllm#823, about memory use under
	// tensor parallelism, with no error and no problem word), "Any ideas",
	// "Does anyone know how …", "Is this expected".
	askedRE = regexp.MustCompile(`(?i)\b(?:(?:can|could|would) (?:anyone|anybody|someone|somebody|you) (?:please )?(?:explain|tell|advise|suggest|clarify|point)|(?:does|do) (?:anyone|anybody|someone|somebody) know|any (?:ideas?|clues?|suggestions?|thoughts|pointers|hints?|advice)\b|is (?:this|that|it) (?:expected|normal|intended)\b|(?:i'?m|i am|i was) wondering|please (?:advise|explain|suggest|clarify))`)
	// questionRE is a question about behaviour written without a question
	// mark: "What do max_num_seqs and max_model_len do", "Is it possible
	// to …", "Does vllm support …".
	questionRE = regexp.MustCompile(`(?i)^\s*(?:\[[^\]]*\]:?\s*)?(what|which|where|when|how|is it possible|is there|are there|can (?:i|we|you|vllm)|could|should|does|do (?:i|we|you)|is|are)\b`)
)

// IsSupportQuestion reports whether a post asks for help, as opposed to an
// announcement, a feature request or chit-chat.
func IsSupportQuestion(title string, f *Facts, body string) bool {
	title = titleText(title)
	if nonSupportTitleRE.MatchString(title) || errorWordingRE.MatchString(title) && !asksRE.MatchString(title) {
		return false
	}
	head := body
	if len(head) > 4000 {
		head = head[:4000]
	}
	head = normalizeText(head) // CRLF, full-width forms: as extraction reads the body
	if requestTemplateRE.MatchString(head) && !supportTitleRE.MatchString(title) {
		// The body is a feature-request or RFC template: the author's
		// own word, as a [Feature] tag is, and one a post keeps when
		// the tag is left off.
		return false
	}
	if requestTitleRE.MatchString(title) && !failureRE.MatchString(title) && len(f.Errors) == 0 && len(f.Commands) == 0 && !bodyAsksRE.MatchString(head) {
		// A request for a capability, with nothing that fails and no
		// question asked: the author asks for a change, not for help,
		// whatever template ("bug: …") carries it. A body that asks how
		// ("vllm openai 接口应该如何使用 tools 和 tool_choice 参数？",
		// corpus #1869) is a question about behaviour.
		return false
	}
	titleAsks := problemRE.MatchString(title) || questionRE.MatchString(title) || outputProblemRE.MatchString(title) || quietFailureRE.MatchString(title)
	if docTitleRE.MatchString(title) {
		// The template's own heading ("📚 The doc issue") would match
		// problemRE in any body, so only the title and errors count.
		return len(f.Errors) > 0 || titleAsks
	}
	if len(f.Errors) > 0 || len(f.Commands) > 0 || supportTitleRE.MatchString(title) || titleAsks {
		return true
	}
	return problemRE.MatchString(head) || askedRE.MatchString(head)
}

// Decide picks the decision and the matches to cite.
func Decide(title, body string, f *Facts, ranked []Match, t Thresholds) (Decision, float64, []Match) {
	if !IsSupportQuestion(title, f, body) {
		return DecisionIgnore, 0, nil
	}
	return DecideQuestion(f, ranked, t)
}

// DecideQuestion decides a post already known to be a support question
// (IsSupportQuestion): reply with citations when the top match is
// structured and sure enough, else abstain.
//
// A post about another serving engine (Facts.OtherEngine) is never
// replied to, however sure its top match: the knowledge base is about
// the main package, so an entry that looks like the post's problem is
// the main package's version of it, and its advice (flags, releases,
// fixes) is for software the poster does not run. Nor is a post whose
// failure is another program's, nor one whose command line was refused
// by a top match that does not speak of the refusal (HeldBack says which).
// Its confidence stays, for the queue.
func DecideQuestion(f *Facts, ranked []Match, t Thresholds) (Decision, float64, []Match) {
	if len(ranked) == 0 {
		return DecisionAbstain, 0, nil
	}
	top := ranked[0]
	conf := Confidence(top)
	if conf < t.Reply || !top.Structured || HeldBack(f, &top) != "" {
		return DecisionAbstain, conf, nil
	}
	return DecisionReply, conf, Citations(ranked, t, nil)
}

// HeldBack says why a post is never replied to, however sure its top
// match (nil when there is none), or "": it is about another serving
// engine (Facts.OtherEngine), its failure is another program's
// (Facts.ForeignError), or its command line was refused and the top match
// does not speak of the refusal (refusalUnaddressed). DecideQuestion
// abstains on each; the bot queues a draft asked for directly for staff,
// with this reason.
func HeldBack(f *Facts, top *Match) string {
	switch {
	case f.OtherEngine != "":
		return "the post is about " + f.OtherEngine
	case f.ForeignError:
		return "the post's failure is another program's"
	case top != nil && refusalUnaddressed(f, *top):
		return "the post's command line was refused and the top match does not speak of it"
	}
	return ""
}

// refusalUnaddressed reports that the post fails only because its
// command line was refused (every error it states is argparse's usage
// error) and the match says nothing of that refusal: no symptom of the
// entry matches the error (signature, class or described symptom) and
// the entry names none of the options the refusal names. A refused
// command line means the program never ran, so an entry about what
// happens when it runs cannot be the cause, however much else of the
// post it shares. Seen twice on real posts, each answered above 0.9
// before this rule (TestRefusedCommandLineNotAnswered holds their forms):
// the Docker page's shared-memory advice for "argument
// --pipeline-parallel-size/-pp: invalid int value: '8000:8000'", docker's
// -p placed after the image and so read by vLLM (vllm-project/vllm#2235,
// which links that page), and the CPU installation page for
// "unrecognized arguments: /bin/bash -c …", a shell handed to an image
// whose entrypoint is the server (opea-project/GenAIComps#336). The rule
// holds no number to fit: it is about what a refusal means, and 95
// labelled posts hold one usage error.
func refusalUnaddressed(f *Facts, top Match) bool {
	if len(f.Errors) == 0 || slices.ContainsFunc(f.Errors, func(e ErrorInfo) bool { return e.Type != "usage-error" }) {
		return false
	}
	if top.Evidence[fSignature] > 0 || top.Evidence[fClass] > 0 || top.Evidence[fSymptom] > 0 {
		return false
	}
	for _, e := range f.Errors {
		for _, w := range strings.Fields(e.Message) {
			w = normFlag(strings.TrimRight(w, ":,"))
			if !strings.HasPrefix(w, "--") {
				continue // "-c", "-m": too short to name one option of an entry
			}
			if slices.ContainsFunc(top.Entry.Flags, func(fl string) bool { return normFlag(fl) == w }) {
				return false
			}
		}
	}
	return true
}

// Citations is the one citation rule: the best structured match not
// skipped, then further structured matches the model holds at least
// t.CiteRelevance likely to fit, best first, at most t.MaxCitations in
// all. Replies, queued drafts and follow-ups all cite by it.
func Citations(ranked []Match, t Thresholds, skip func(Match) bool) []Match {
	var cited []Match
	for _, m := range ranked {
		if len(cited) == t.MaxCitations {
			break
		}
		if !m.Structured || skip != nil && skip(m) {
			continue
		}
		if len(cited) == 0 || m.Relevance >= t.CiteRelevance {
			cited = append(cited, m)
		}
	}
	return cited
}
