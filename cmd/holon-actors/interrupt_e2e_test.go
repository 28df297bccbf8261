package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	toolexec "github.com/holon-actors/holon-actors/tools/exec"
)

// strictVendor is a model server speaking OpenAI's Chat Completions
// ("chat") or Responses ("responses") wire, or Anthropic's Messages
// ("anthropic"), that checks every request's tool calls the way the vendor
// does: a call without its result, or a result without its call, is
// refused with the vendor's HTTP 400 error body. A
// Responses request continuing a stored response (previous_response_id)
// is checked with the stored items before it.
//
// Its model asks for a batch of two ExecCommand calls when the operator's
// latest prompt says "run the batch": the first waits inline for its go
// file (writing its pid first, and a marker if it is ever released), the
// second echoes; anything else gets the answer "Done.".
type strictVendor struct {
	wire string // "chat", "responses" or "anthropic"
	dir  string // where the batch commands write their pid and marker files

	mu       sync.Mutex
	batches  int
	stored   map[string][]map[string]any // responses: full items of each response id
	refusals []string                    // the 400 bodies sent
	requests int
}

// openAIError is OpenAI's error body.
func openAIError(message, param string) string {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{
		"message": message, "type": "invalid_request_error", "param": param, "code": nil}})
	return string(b)
}

func (s *strictVendor) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req struct {
		Messages []map[string]any `json:"messages"`
		Input    []map[string]any `json:"input"`
		Previous string           `json:"previous_response_id"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, openAIError("We could not parse the JSON body of your request.", ""), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests++
	items := req.Messages
	if s.wire == "responses" {
		prev, ok := s.stored[req.Previous]
		if req.Previous != "" && !ok {
			s.refuse(w, openAIError(fmt.Sprintf("Previous response with id '%s' not found.", req.Previous), "previous_response_id"))
			return
		}
		items = append(slices.Clone(prev), req.Input...)
	}
	if msg := s.check(items); msg != "" {
		s.refuse(w, msg)
		return
	}
	var calls [][2]string // name, arguments
	if batchAsked(items) {
		s.batches++
		n := s.batches
		wait := fmt.Sprintf("echo $$ > %s; while [ ! -e %s ]; do sleep 0.05; done; touch %s",
			s.file("pid", n), s.file("go", n), s.file("marker", n))
		calls = [][2]string{{"ExecCommand", mustJSON(map[string]any{"cmd": wait, "yield_time_ms": 600000})},
			{"ExecCommand", mustJSON(map[string]any{"cmd": "echo two"})}}
	}
	w.Header().Set("Content-Type", "application/json")
	switch s.wire {
	case "chat":
		_, _ = w.Write([]byte(s.chatReply(calls)))
	case "anthropic":
		_, _ = w.Write([]byte(s.anthropicReply(calls)))
	default:
		_, _ = w.Write([]byte(s.responsesReply(items, calls)))
	}
}

func (s *strictVendor) refuse(w http.ResponseWriter, body string) {
	s.refusals = append(s.refusals, body)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write([]byte(body))
}

func (s *strictVendor) file(kind string, n int) string {
	return filepath.Join(s.dir, kind+"-"+strconv.Itoa(n))
}

// check returns OpenAI's error body for the first call without a result or
// result without a call in items, or "".
func (s *strictVendor) check(items []map[string]any) string {
	switch s.wire {
	case "responses":
		return checkResponsesInput(items)
	case "anthropic":
		return checkAnthropicMessages(items)
	}
	return checkChatMessages(items)
}

// checkChatMessages: an assistant message with tool_calls must be followed
// at once by one tool message per call; a tool message must answer one.
func checkChatMessages(msgs []map[string]any) string {
	var pending []string
	answering := false
	for i, m := range msgs {
		role, _ := m["role"].(string)
		if role == "tool" {
			id, _ := m["tool_call_id"].(string)
			j := slices.Index(pending, id)
			if !answering || j < 0 {
				return openAIError("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
					fmt.Sprintf("messages.[%d].role", i))
			}
			pending = slices.Delete(pending, j, j+1)
			continue
		}
		if len(pending) > 0 {
			return danglingChat(pending, i)
		}
		pending, answering = nil, false
		if calls, _ := m["tool_calls"].([]any); role == "assistant" && len(calls) > 0 {
			answering = true
			for _, c := range calls {
				id, _ := c.(map[string]any)["id"].(string)
				pending = append(pending, id)
			}
		}
	}
	if len(pending) > 0 {
		return danglingChat(pending, len(msgs))
	}
	return ""
}

func danglingChat(ids []string, at int) string {
	return openAIError("An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. "+
		"The following tool_call_ids did not have response messages: "+strings.Join(ids, ", "), fmt.Sprintf("messages.[%d].role", at))
}

// checkResponsesInput: every function_call needs its function_call_output
// and every output its call.
func checkResponsesInput(items []map[string]any) string {
	calls, outputs := map[string]bool{}, map[string]bool{}
	for _, it := range items {
		id, _ := it["call_id"].(string)
		switch it["type"] {
		case "function_call":
			calls[id] = true
		case "function_call_output":
			if !calls[id] {
				return openAIError("No tool call found for function call output with call_id "+id+".", "input")
			}
			outputs[id] = true
		}
	}
	for _, it := range items {
		if id, _ := it["call_id"].(string); it["type"] == "function_call" && !outputs[id] {
			return openAIError("No tool output found for function call "+id+".", "input")
		}
	}
	return ""
}

// anthropicError is Anthropic's error body.
func anthropicError(message string) string {
	return mustJSON(map[string]any{"type": "error", "error": map[string]any{"type": "invalid_request_error", "message": message}})
}

// checkAnthropicMessages: the tool_use blocks of an assistant message need
// their tool_result blocks in the next message, and a tool_result needs its
// tool_use in the message before.
func checkAnthropicMessages(msgs []map[string]any) string {
	blocks := func(m map[string]any, typ, key string) []string {
		var ids []string
		content, _ := m["content"].([]any)
		for _, b := range content {
			if b, _ := b.(map[string]any); b["type"] == typ {
				id, _ := b[key].(string)
				ids = append(ids, id)
			}
		}
		return ids
	}
	var uses []string // the tool_use ids of the message before
	for i, m := range msgs {
		results := blocks(m, "tool_result", "tool_use_id")
		var missing []string
		for _, id := range uses {
			if !slices.Contains(results, id) {
				missing = append(missing, id)
			}
		}
		if len(missing) > 0 {
			return anthropicError(fmt.Sprintf("messages.%d: `tool_use` ids were found without `tool_result` blocks immediately after: %s. "+
				"Each `tool_use` block must have a corresponding `tool_result` block in the next message.", i-1, strings.Join(missing, ", ")))
		}
		for _, id := range results {
			if !slices.Contains(uses, id) {
				return anthropicError(fmt.Sprintf("messages.%d: unexpected `tool_use_id` found in `tool_result` blocks: %s. "+
					"Each `tool_result` block must have a corresponding `tool_use` block in the previous message.", i, id))
			}
		}
		uses = blocks(m, "tool_use", "id")
	}
	if len(uses) > 0 {
		return anthropicError(fmt.Sprintf("messages.%d: `tool_use` ids were found without `tool_result` blocks immediately after: %s. "+
			"Each `tool_use` block must have a corresponding `tool_result` block in the next message.", len(msgs)-1, strings.Join(uses, ", ")))
	}
	return ""
}

// batchAsked reports whether the operator's latest prompt asks for the
// batch and the model has not answered it yet.
func batchAsked(items []map[string]any) bool {
	asked := false
	for _, it := range items {
		role, _ := it["role"].(string)
		text := fmt.Sprint(it["content"])
		switch {
		case it["type"] == "function_call" || role == "assistant":
			asked = false
		case role == "user" && strings.Contains(text, "[from operator"):
			asked = strings.Contains(text, "run the batch")
		}
	}
	return asked
}

func (s *strictVendor) chatReply(calls [][2]string) string {
	msg := map[string]any{"role": "assistant", "content": "Done."}
	finish := "stop"
	if len(calls) > 0 {
		var tc []any
		for i, c := range calls {
			tc = append(tc, map[string]any{"id": fmt.Sprintf("call_%d_%d", s.batches, i+1), "type": "function",
				"function": map[string]any{"name": c[0], "arguments": c[1]}})
		}
		msg = map[string]any{"role": "assistant", "content": "Running the batch.", "tool_calls": tc}
		finish = "tool_calls"
	}
	return mustJSON(map[string]any{"id": fmt.Sprintf("chatcmpl-%d", s.requests), "object": "chat.completion", "created": 1767225600,
		"model": "llama3.2", "choices": []any{map[string]any{"index": 0, "finish_reason": finish, "message": msg}},
		"usage": map[string]any{"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110}})
}

func (s *strictVendor) anthropicReply(calls [][2]string) string {
	content := []any{map[string]any{"type": "text", "text": "Done."}}
	stop := "end_turn"
	if len(calls) > 0 {
		content = []any{map[string]any{"type": "text", "text": "Running the batch."}}
		for i, c := range calls {
			content = append(content, map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%d_%d", s.batches, i+1),
				"name": c[0], "input": json.RawMessage(c[1])})
		}
		stop = "tool_use"
	}
	return mustJSON(map[string]any{"id": fmt.Sprintf("msg_%d", s.requests), "type": "message", "role": "assistant",
		"model": "claude-sonnet-4-5-20250929", "content": content, "stop_reason": stop, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 100, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": 10}})
}

func (s *strictVendor) responsesReply(items []map[string]any, calls [][2]string) string {
	id := fmt.Sprintf("resp_%d", s.requests)
	text := "Done."
	if len(calls) > 0 {
		text = "Running the batch."
	}
	output := []map[string]any{{"type": "message", "id": "msg_" + id, "status": "completed", "role": "assistant",
		"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}}}}
	stored := append(slices.Clone(items), map[string]any{"role": "assistant", "content": text})
	for i, c := range calls {
		callID := fmt.Sprintf("call_%d_%d", s.batches, i+1)
		output = append(output, map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_%s_%d", id, i),
			"call_id": callID, "name": c[0], "arguments": c[1], "status": "completed"})
		stored = append(stored, map[string]any{"type": "function_call", "call_id": callID, "name": c[0], "arguments": c[1]})
	}
	if s.stored == nil {
		s.stored = map[string][]map[string]any{}
	}
	s.stored[id] = stored
	return mustJSON(map[string]any{"id": id, "object": "response", "created_at": 1767225600, "status": "completed",
		"model": "gpt-5", "output": output,
		"usage": map[string]any{"input_tokens": 100, "input_tokens_details": map[string]any{"cached_tokens": 0},
			"output_tokens": 10, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 110}})
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// TestStrictServerRefusesDanglingCalls: the fake refuses what OpenAI
// refuses, with OpenAI's error body, so the test below can fail.
func TestStrictServerRefusesDanglingCalls(t *testing.T) {
	call := map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{"id": "call_1"}}}
	next := map[string]any{"role": "user", "content": "next"}
	if got := checkChatMessages([]map[string]any{next, call, next}); !strings.Contains(got, "did not have response messages: call_1") ||
		!strings.Contains(got, `"param":"messages.[2].role"`) {
		t.Errorf("dangling chat call = %s", got)
	}
	if got := checkChatMessages([]map[string]any{next, {"role": "tool", "tool_call_id": "call_1"}}); !strings.Contains(got, "must be a response to a preceeding message") {
		t.Errorf("orphan tool message = %s", got)
	}
	if got := checkChatMessages([]map[string]any{next, call, {"role": "tool", "tool_call_id": "call_1"}, next}); got != "" {
		t.Errorf("answered call refused: %s", got)
	}
	fc := map[string]any{"type": "function_call", "call_id": "call_1"}
	if got := checkResponsesInput([]map[string]any{next, fc, next}); !strings.Contains(got, "No tool output found for function call call_1.") {
		t.Errorf("dangling function_call = %s", got)
	}
	use := map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": "toolu_1"}}}
	result := map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": "toolu_1"}}}
	if got := checkAnthropicMessages([]map[string]any{next, use, next}); !strings.Contains(got, "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1.") {
		t.Errorf("dangling tool_use = %s", got)
	}
	if got := checkAnthropicMessages([]map[string]any{next, use, result}); got != "" {
		t.Errorf("answered tool_use refused: %s", got)
	}
}

// TestInterruptNeverLeavesACallUnanswered drives the built binary against
// a strict vendor server (OpenAI Chat Completions and Responses, Anthropic
// Messages): a turn running a two-call batch is interrupted (prompt
// --interrupt) while its first command runs inline, another is stopped
// there, a third is paused there and interrupted before its second call, a
// fourth dies with the runtime (SIGKILL) and is resumed by the next run.
// Every request the server sees is valid, every later prompt is answered,
// and the interrupted and stopped commands are killed (their process
// groups gone, no marker written once they are released), not promoted to
// tasks.
func TestInterruptNeverLeavesACallUnanswered(t *testing.T) {
	t.Parallel()
	tests := []struct {
		wire, model string
		env         []string
	}{
		{"chat", "ollama/llama3.2", []string{"HOLON_OLLAMA_BASE_URL="}},
		{"responses", "openai/gpt-5", []string{"OPENAI_API_KEY=test-key", "HOLON_OPENAI_BASE_URL="}},
		{"anthropic", "anthropic/claude-sonnet-4-5", []string{"ANTHROPIC_API_KEY=test-key", "HOLON_ANTHROPIC_BASE_URL="}},
	}
	for _, tt := range tests {
		t.Run(tt.wire, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			srv := &strictVendor{wire: tt.wire, dir: dir}
			hs := httptest.NewServer(srv)
			defer hs.Close()
			env := append([]string{}, tt.env...)
			env[len(env)-1] += hs.URL + "/v1/"
			home := filepath.Join(t.TempDir(), "home")
			d := startRunEnv(t, home, env, "--model", tt.model)
			c := control.NewUnixClient(filepath.Join(home, "run", "control.sock"))
			defer c.Close()
			answered := func(args ...string) {
				t.Helper()
				code, out, errOut := client(t, home, append([]string{"prompt", "--wait"}, args...)...)
				if code != 0 || !strings.Contains(out, "Done.") {
					srv.mu.Lock()
					refused := strings.Join(srv.refusals, "\n")
					srv.mu.Unlock()
					t.Fatalf("prompt %v = %d %q %q\nrefused:\n%s\nruntime:\n%s", args, code, out, errOut, refused, d.output())
				}
			}
			startBatch := func(n int) int {
				t.Helper()
				if code, out, errOut := client(t, home, "prompt", "run the batch"); code != 0 {
					t.Fatalf("prompt = %d %q %q", code, out, errOut)
				}
				pgid := waitPIDFile(t, srv.file("pid", n))
				t.Cleanup(func() { toolexec.KillGroup(pgid) })
				return pgid
			}

			// killed checks that batch n's command ended with its turn: once
			// released, a command that survived would write its marker.
			killed := func(n, pgid int) {
				t.Helper()
				if err := os.WriteFile(srv.file("go", n), nil, 0o600); err != nil {
					t.Fatal(err)
				}
				waitGone(t, pgid)
				if _, err := os.Stat(srv.file("marker", n)); !os.IsNotExist(err) {
					t.Errorf("batch %d: its command survived the end of its turn (marker: %v)", n, err)
				}
			}

			// 1. prompt --interrupt while the first command runs inline.
			interrupted := startBatch(1)
			answered("--interrupt", "Never mind, say done.")
			killed(1, interrupted)

			// 2. agents stop while the first command runs inline, then resume.
			stopped := startBatch(2)
			if code, out, errOut := client(t, home, "agents", "stop", "main"); code != 0 {
				t.Fatalf("agents stop = %d %q %q", code, out, errOut)
			}
			waitEvents(t, c, "main", messages.EventTurnTerminal, 3)
			killed(2, stopped)
			if code, out, errOut := client(t, home, "agents", "resume", "main"); code != 0 {
				t.Fatalf("agents resume = %d %q %q", code, out, errOut)
			}
			answered("Say done.")

			// 3. agents pause while the first command runs inline: the
			// command finishes (a pause waits for the safe point) and the
			// second call waits; an interrupt then ends the turn.
			startBatch(3)
			if code, out, errOut := client(t, home, "agents", "pause", "main"); code != 0 {
				t.Fatalf("agents pause = %d %q %q", code, out, errOut)
			}
			if err := os.WriteFile(srv.file("go", 3), nil, 0o600); err != nil {
				t.Fatal(err)
			}
			waitEvents(t, c, "main", messages.EventToolExecuted, 5)
			if code, out, errOut := client(t, home, "agents", "interrupt", "main"); code != 0 {
				t.Fatalf("agents interrupt = %d %q %q", code, out, errOut)
			}
			waitEvents(t, c, "main", messages.EventTurnTerminal, 5)
			if code, out, errOut := client(t, home, "agents", "resume", "main"); code != 0 {
				t.Fatalf("agents resume = %d %q %q", code, out, errOut)
			}
			answered("Say done.")

			// 4. the runtime dies while the first command runs inline; the
			// next run settles the started call and runs the other.
			crashed := startBatch(4)
			d.kill()
			toolexec.KillGroup(crashed) // an inline command orphaned by SIGKILL is not this test's concern
			d = startRunEnv(t, home, env, "--model", tt.model)
			waitEvents(t, c, "main", messages.EventTurnTerminal, 7)
			answered("Say done.")
			d.stop()
			srv.mu.Lock()
			defer srv.mu.Unlock()
			if len(srv.refusals) > 0 {
				t.Fatalf("the server refused %d request(s):\n%s", len(srv.refusals), strings.Join(srv.refusals, "\n"))
			}
		})
	}
}

// waitPIDFile waits until a command wrote its pid (its process group) to path.
func waitPIDFile(t *testing.T, path string) int {
	t.Helper()
	deadline := time.Now().Add(e2eWait)
	for {
		if b, err := os.ReadFile(path); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
				return pid
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no pid in %s after %s", path, e2eWait)
		}
		time.Sleep(20 * time.Millisecond) // polling another process
	}
}

// waitGone waits until process group pgid has no process left.
func waitGone(t *testing.T, pgid int) {
	t.Helper()
	deadline := time.Now().Add(e2eWait)
	for toolexec.GroupAlive(pgid) {
		if time.Now().After(deadline) {
			t.Fatalf("process group %d still alive after %s", pgid, e2eWait)
		}
		time.Sleep(20 * time.Millisecond) // polling another process
	}
}
