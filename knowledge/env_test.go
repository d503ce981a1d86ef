package knowledge

import (
	"maps"
	"testing"
)

// Each form a post sets an environment variable in is read (env.go),
// and what only looks like one is not.
func TestEnvForms(t *testing.T) {
	t.Parallel()
	s := vllmSchema(t)
	tests := []struct {
		name, body string
		want       map[string]string
	}{
		{"Python's os.environ, quoted either way",
			"```python\nimport os\nos.environ[\"VLLM_WORKER_MULTIPROC_METHOD\"] = \"spawn\"\nos.environ['CUDA_VISIBLE_DEVICES']='0,1'\nllm = LLM(model=\"m/x\")\n```",
			map[string]string{"VLLM_WORKER_MULTIPROC_METHOD": "spawn", "CUDA_VISIBLE_DEVICES": "0,1"}},
		{"os.environ set from a variable: set, value unstated",
			"```python\nos.environ[\"OPENAI_API_KEY\"] = api_key\n```", map[string]string{"OPENAI_API_KEY": ""}},
		{"setdefault and putenv",
			"```python\nos.environ.setdefault(\"VLLM_USE_V1\", \"0\")\nos.putenv('NCCL_P2P_DISABLE', '1')\n```",
			map[string]string{"VLLM_USE_V1": "0", "NCCL_P2P_DISABLE": "1"}},
		{"a comparison sets nothing",
			"```python\nif os.environ[\"VLLM_USE_V1\"] == \"1\":\n    pass\n```", nil},
		{"Compose's environment as a list",
			"```yaml\nservices:\n  vllm:\n    image: vllm/vllm-openai:v0.8.3\n    environment:\n      - CUDA_VISIBLE_DEVICES=0\n      - \"HF_HUB_OFFLINE=1\"\n      - HF_TOKEN\n    ipc: host\n```",
			map[string]string{"CUDA_VISIBLE_DEVICES": "0", "HF_HUB_OFFLINE": "1", "HF_TOKEN": ""}},
		{"Compose's environment as a map, comments cut",
			"```yaml\n    environment:\n      VLLM_API_KEY: ${VLLM_API_KEY:-secret}\n      VLLM_LOGGING_LEVEL: \"DEBUG\"  # verbose\n    volumes:\n      - NOT_ENV=1\n```",
			map[string]string{"VLLM_API_KEY": "${VLLM_API_KEY:-secret}", "VLLM_LOGGING_LEVEL": "DEBUG"}},
		{"Kubernetes' env, items at the key's indentation, a valueFrom",
			"```yaml\n      containers:\n      - name: vllm\n        image: vllm/vllm-openai:latest\n        env:\n        - name: VLLM_ATTENTION_BACKEND\n          value: \"FLASHINFER\"\n        - name: HF_TOKEN\n          valueFrom:\n            secretKeyRef:\n              name: hf-secret\n              key: token\n        ports:\n        - name: http\n          containerPort: 8000\n```",
			map[string]string{"VLLM_ATTENTION_BACKEND": "FLASHINFER", "HF_TOKEN": ""}},
		{"a Dockerfile's ENV, both forms",
			"```dockerfile\nFROM vllm/vllm-openai:latest\nENV VLLM_USE_V1=0 HF_HOME=\"/models\"\nENV NCCL_DEBUG INFO\n```",
			map[string]string{"VLLM_USE_V1": "0", "HF_HOME": "/models", "NCCL_DEBUG": "INFO"}},
		{"a heading named environment over pinned versions (vllm-dev C3-027's form)",
			"environment:\nvllm=0.8.5+cu118\ntorch=2.6.0+cu118\n", nil},
		{"an environment key in code over versions at its own indentation",
			"```\nenvironment:\nvllm=0.8.5\n```", nil},
	}
	for _, tt := range tests {
		f, _ := Extract(Post{Title: "vllm env", Body: tt.body}, s)
		if !maps.Equal(f.Env, tt.want) {
			t.Errorf("%s: env %v, want %v", tt.name, f.Env, tt.want)
		}
	}
}
