package control

import (
	"bytes"
	"net/http"
	"strconv"
	"sync"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/holon-actors/holon-actors/actors/agentstate"
)

// The agent listing is the one answer that grows with the agents: 1,000
// agents' infos are some 320 KB of indented JSON, which encoding/json took
// 1.7 ms to indent and 4–5 ms to decode, most of a listing's 13.7 ms. It
// is written and read with encoding/json/v2 (GOEXPERIMENT=jsonv2 since Go
// 1.25; github.com/go-json-experiment/json mirrors it until it is the
// standard library's) set to encoding/json's semantics, which does both in
// one pass where encoding/json scans its input twice. The answer's bytes
// are writeJSON's and the client decodes as encoding/json does (tested).
// Through the control socket, 1,000 running agents were listed in 8.0–10.0
// ms with encoding/json, 4.3–5.8 ms so (BenchmarkAgentsList in bench).

// listOptions are encoding/json's semantics and writeJSON's indentation.
var listOptions = jsonv2.JoinOptions(jsonv1.DefaultOptionsV1(), jsontext.WithIndent("  "))

// listBuffers hold the listings being written, so that each does not
// allocate its own.
var listBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// writeList sends v with status as writeJSON does, byte for byte, with its
// length.
func writeList(w http.ResponseWriter, status int, v any) {
	buf := listBuffers.Get().(*bytes.Buffer)
	defer listBuffers.Put(buf)
	buf.Reset()
	err := jsonv2.MarshalWrite(buf, v, listOptions)
	w.Header().Set("Content-Type", "application/json")
	if err != nil {
		w.WriteHeader(status)
		return // as writeJSON: the status, and no body
	}
	buf.WriteByte('\n')
	w.Header().Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// maxListPresize bounds the buffer decodeList sizes from an answer's
// Content-Length: a larger answer grows it as it is read.
const maxListPresize = 64 << 20

// listElement begins each agent of an answer writeList wrote, and nothing
// else in it: deeper values are indented further, and a string holds no
// raw newline.
var listElement = []byte("\n    {")

// decodeList decodes resp's answer, written by writeList, into out. An
// *AgentList with no agents yet gets room for as many as the answer holds,
// instead of growing its slice a dozen times.
func decodeList(resp *http.Response, out any) error {
	var buf bytes.Buffer
	if n := resp.ContentLength; n > 0 && n <= maxListPresize {
		buf.Grow(int(n) + bytes.MinRead) // ReadFrom wants MinRead free to read EOF
	}
	if _, err := buf.ReadFrom(resp.Body); err != nil {
		return err
	}
	if l, ok := out.(*AgentList); ok && l.Agents == nil {
		l.Agents = make([]agentstate.AgentInfo, 0, bytes.Count(buf.Bytes(), listElement))
	}
	return jsonv2.Unmarshal(buf.Bytes(), out, jsonv1.DefaultOptionsV1())
}
