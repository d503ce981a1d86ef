package discoursetest

// Demo is what Seed created.
type Demo struct {
	Support  *Category
	Staff    *Category
	Admin    *User // an administrator
	Mod      *User // a moderator in the support-team group
	Bot      *User // the bot's account (a moderator, so it may whisper)
	Alice    *User // a regular user
	Bob      *User // another regular user
	OOMTopic *Topic
}

// BotAPIKey and AdminAPIKey are the API keys Seed registers.
const (
	BotAPIKey   = "bot-api-key-0123456789abcdef"
	AdminAPIKey = "admin-api-key-0123456789abcdef"
)

// Seed fills the forum with users, categories and realistic support
// topics: the vLLM out-of-memory post among them. botName names the bot's
// account ("herald" if empty).
func (s *Server) Seed(botName string) *Demo {
	if botName == "" {
		botName = "herald"
	}
	d := &Demo{}
	d.Admin = s.AddUser(User{Username: "admin", Name: "Site Admin", Email: "admin@example.org", Admin: true, TrustLevel: 4,
		Groups: []string{"staff", "admins", "trust_level_4"}})
	d.Mod = s.AddUser(User{Username: "maria", Name: "Maria Moderator", Email: "maria@example.org", Moderator: true, TrustLevel: 4,
		Groups: []string{"staff", "moderators", "support-team"}})
	d.Bot = s.AddUser(User{Username: botName, Name: "Herald", Moderator: true, TrustLevel: 4, Groups: []string{"staff", "moderators"}})
	d.Alice = s.AddUser(User{Username: "alice", Name: "Alice", Email: "alice@example.org", TrustLevel: 1, Groups: []string{"trust_level_1"}})
	d.Bob = s.AddUser(User{Username: "bob", Name: "Bob", Email: "bob@example.org", TrustLevel: 2, Groups: []string{"trust_level_2"}})
	s.AddAPIKey(BotAPIKey, botName)
	s.AddAPIKey(AdminAPIKey, "")
	d.Support = s.AddCategory("Support")
	d.Staff = s.AddCategory("Staff")

	d.OOMTopic, _, _ = s.CreateTopic("alice", d.Support.ID, "Running out of memory despite very low --gpu-memory-utilization",
		`I'm trying to get DiffusionGemma going. My card is a 16GB AMD GPU, so I planned on CPU offloading. This is the command:

vllm serve --port 8085 google/diffusiongemma-26B-A4B-it --max-num-seqs 1 --enable-auto-tool-choice --tool-call-parser gemma4 --chat-template ~/Downloads/tool_chat_template_gemma4.jinja --reasoning-parser gemma4 --cpu-offload-gb 100 --gpu-memory-utilization 0.1

and it dies with:

torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 968.00 MiB. GPU 0 has a total capacity of 15.98 GiB of which 354.00 MiB is free. Of the allocated memory 15.09 GiB is allocated by PyTorch, and 293.03 MiB is reserved by PyTorch but unallocated.

% vllm -v
0.24.0+rocm725`)
	_, _, _ = s.CreateTopic("bob", d.Support.ID, "max seq len larger than KV cache on an A10G",
		"Starting Mistral on a single A10G fails right away:\n\n```\n$ vllm serve mistralai/Mistral-7B-Instruct-v0.2 --gpu-memory-utilization 0.85\nValueError: The model's max seq len (32768) is larger than the maximum number of tokens that can be stored in KV cache (16816). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.\n```\nvllm==0.4.0.post1")
	_, _, _ = s.CreateTopic("alice", d.Support.ID, "vllm serve with --tensor-parallel-size 2 hangs",
		"With two L40S cards, `vllm serve Qwen/QwQ-32B-AWQ --tensor-parallel-size 2` just hangs after loading weights; after ten minutes:\n\n```\n[rank0]:[E ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=5, OpType=ALLREDUCE) ran for 600012 milliseconds before timing out.\n```\nNCCL version 2.21.5, vLLM 0.8.3")
	_, _, _ = s.CreateTopic("bob", d.Support.ID, "Grafana dashboard for latency percentiles",
		"Does anyone know a good way to get request latency percentiles from the Prometheus endpoint into Grafana? The dashboards look odd to me.")
	_, _, _ = s.CreateTopic("maria", d.Staff.ID, "Welcome to the staff category",
		"This category is where staff coordinate. Please keep discussions here private.")
	return d
}
