package bench

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/rs/zerolog"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/providers/catalog"
)

// responsesReply is an OpenAI Responses API reply, from the transport's
// fixtures.
//
//go:embed testdata/responses_success.json
var responsesReply []byte

// TransportConfig sets the workload of Transport.
type TransportConfig struct {
	// Rounds is how many model rounds each side makes (after a warm-up).
	Rounds int
}

// DefaultTransportConfig is 20,000 rounds a side (about 2 s): shorter runs
// move with whatever else the machine does.
func DefaultTransportConfig() TransportConfig { return TransportConfig{Rounds: 20000} }

// Validate reports a setting that cannot run.
func (c TransportConfig) Validate() error {
	if c.Rounds < 10 {
		return fmt.Errorf("transport bench: rounds is %d, want at least 10", c.Rounds)
	}
	return nil
}

// TransportResult is what Transport measured.
type TransportResult struct {
	Rounds int `json:"rounds"`
	// Mean time of one model round through the runtime's provider path (a
	// fallback chain whose candidate is served by its transport actor,
	// over the OpenAI Responses transport: request lowering, encoding, the
	// actor hop, HTTP, decoding into the wire types, the response and the
	// attempt timeline) and of a bare net/http round trip carrying the same
	// request body to the same loopback server and decoding the reply into
	// a generic value, in microseconds.
	TransportMeanUS float64 `json:"transport_mean_us"`
	BareMeanUS      float64 `json:"bare_mean_us"`
	// TransportOverheadRatio is TransportMeanUS / BareMeanUS.
	TransportOverheadRatio float64 `json:"transport_overhead_ratio"`
}

// Transport runs model rounds against a loopback server answering every
// request with a Responses API reply: through the runtime's provider path,
// and as bare net/http round trips with the body the transport sent, so
// both carry the same bytes. The two run in alternating blocks.
func Transport(ctx context.Context, cfg TransportConfig) (TransportResult, error) {
	if err := cfg.Validate(); err != nil {
		return TransportResult{}, err
	}
	var lastBody []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		lastBody = b
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(responsesReply)
	}))
	defer srv.Close()
	client := srv.Client()
	ref, _ := providers.ParseModelRef("openai/gpt-5")
	ep := providers.Endpoint{Ref: ref, BaseURL: srv.URL + "/v1/", APIKey: "bench", HTTPClient: client}
	rt, err := actors.NewRuntime(actors.AgentDeps{Store: persistence.NewMemStore(), Log: zerolog.Nop()}, actors.RuntimeOptions{})
	if err != nil {
		return TransportResult{}, err
	}
	defer rt.Close()
	chain, err := catalog.ChainWith(providers.DefaultRetryPolicy(), []providers.Endpoint{ep}, nil, rt.Transport)
	if err != nil {
		return TransportResult{}, err
	}
	req := transportRequest()
	transport := func() error {
		_, err := chain.Complete(ctx, req)
		return err
	}
	if err := transport(); err != nil { // warm-up, and the body bare sends
		return TransportResult{}, fmt.Errorf("transport round: %w", err)
	}
	body := lastBody
	bare := func() error { return bareRound(ctx, client, srv.URL+"/v1/responses", body) }
	tr, br, err := interleave(cfg.Rounds, transport, bare)
	if err != nil {
		return TransportResult{}, err
	}
	res := TransportResult{Rounds: cfg.Rounds, TransportMeanUS: us(tr), BareMeanUS: us(br)}
	res.TransportOverheadRatio = res.TransportMeanUS / res.BareMeanUS
	return res, nil
}

// blocks is how many alternating blocks interleave splits its rounds into.
const blocks = 20

// interleave runs n rounds of each of a and b in alternating blocks, so
// that whatever else the machine does in the meantime weighs on both
// alike, and returns the mean round of each.
func interleave(n int, a, b func() error) (time.Duration, time.Duration, error) {
	if err := b(); err != nil { // warm-up
		return 0, 0, fmt.Errorf("bare round: %w", err)
	}
	var ta, tb time.Duration
	done := 0
	for i := range blocks {
		k := n*(i+1)/blocks - done
		done += k
		d, err := timeBlock(k, a)
		if err != nil {
			return 0, 0, fmt.Errorf("transport round: %w", err)
		}
		ta += d
		if d, err = timeBlock(k, b); err != nil {
			return 0, 0, fmt.Errorf("bare round: %w", err)
		}
		tb += d
	}
	return ta / time.Duration(n), tb / time.Duration(n), nil
}

// timeBlock runs f n times and returns how long that took.
func timeBlock(n int, f func() error) (time.Duration, error) {
	began := time.Now()
	for range n {
		if err := f(); err != nil {
			return 0, err
		}
	}
	return time.Since(began), nil
}

// bareRound posts body and decodes the reply into a generic value, the
// least a client must do with it.
func bareRound(ctx context.Context, c *http.Client, url string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer bench")
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return errors.New(resp.Status)
	}
	var v map[string]any
	return json.NewDecoder(resp.Body).Decode(&v)
}

// transportRequest is a small but realistic round: a system prompt, a few
// conversation items and one tool.
func transportRequest() providers.Request {
	op := messages.OperatorOrigin("bench")
	return providers.Request{AgentID: "bench", TurnID: "turn_1", Round: 1,
		Frame: providers.PromptFrame{SystemPrompt: "You are a benchmark agent.",
			SystemBlocks: []providers.Block{{Text: "Identity block.", CacheBreakpoint: true}}},
		Conversation: []providers.Item{
			{Kind: providers.ItemMessage, MessageID: "msg_1", Origin: &op, Authority: messages.AuthorityOperatorInstruction, Text: "What is the weather in Oslo?"},
		},
		Tools: []providers.ToolSpec{{Name: "get_weather", Description: "Weather for a city.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)}},
	}
}

func us(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
