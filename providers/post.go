package providers

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// MaxReplyBytes bounds a JSON reply a transport reads whole; a larger one
// fails as a protocol error instead of filling memory.
const MaxReplyBytes = 32 << 20

// maxErrorBody bounds the body of an error status kept for classification.
const maxErrorBody = 64 << 10

// Post is one vendor endpoint as a transport calls it: a JSON POST with
// no retries of its own (the chain owns retry and fallback), whose
// failures come back classified. Transports encode and decode with
// encoding/json into lean wire types of their own: the vendors' SDKs
// marshal through reflection-heavy layers that cost several times a
// loopback round trip (bench transport).
type Post struct {
	Provider string       // the candidate's model ref, for errors
	URL      string       // the full request URL
	Client   *http.Client // the endpoint's client
	Header   http.Header  // sent with every request: credentials, versions
	Secret   Secret       // scrubbed from anything an error keeps
}

// Do sends body and returns a response with a 2xx status, whose body the
// caller closes. Another status is read (up to 64 KiB) and classified by
// ClassifyStatus; a request that cannot be sent by ClassifyTransport.
func (p Post) Do(ctx context.Context, body []byte, accept string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.URL, bytes.NewReader(body))
	if err != nil {
		return nil, ClassifyTransport(ctx, p.Provider, p.URL, StageRequest, err, p.Secret)
	}
	for k, v := range p.Header {
		req.Header[k] = v
	}
	req.Header["Content-Type"] = jsonType
	req.Header["Accept"] = []string{accept}
	res, err := p.Client.Do(req)
	if err != nil {
		return nil, ClassifyTransport(ctx, p.Provider, p.URL, StageRequest, err, p.Secret)
	}
	if res.StatusCode < 200 || res.StatusCode > 299 {
		defer res.Body.Close()
		b, _ := io.ReadAll(io.LimitReader(res.Body, maxErrorBody))
		if ctx.Err() != nil {
			return nil, ClassifyTransport(ctx, p.Provider, p.URL, StageBody, ctx.Err(), p.Secret)
		}
		return nil, ClassifyStatus(HTTPFailure{Provider: p.Provider, URL: p.URL, Status: res.StatusCode,
			Header: res.Header, Body: b, Now: time.Now(), Secret: p.Secret})
	}
	return res, nil
}

var jsonType = []string{"application/json"}

// UserAgent names this runtime to vendors.
const UserAgent = "holon-actors"

// Post is the endpoint's Post to path (joined to its base URL): its
// client, its key kept secret, the runtime's User-Agent, and header
// (credentials, API versions).
func (e Endpoint) Post(path string, header http.Header) Post {
	h := http.Header{"User-Agent": {UserAgent}}
	for k, v := range header {
		h[http.CanonicalHeaderKey(k)] = v
	}
	return Post{Provider: e.Ref.String(), URL: joinURL(e.BaseURL, path), Client: e.Client(), Header: h, Secret: e.APIKey}
}

// joinURL appends path to base's path, keeping base's query (a gateway's
// ?key=… or ?api-version=…) after it.
func joinURL(base, path string) string {
	u, err := url.Parse(base)
	if err != nil || u.RawQuery == "" {
		return strings.TrimSuffix(base, "/") + path
	}
	q := u.RawQuery
	u.RawQuery, u.ForceQuery = "", false
	return strings.TrimSuffix(u.String(), "/") + path + "?" + q
}

// BearerAuth is the Authorization header of an endpoint's key; empty
// without a key (a local server that needs none).
func (e Endpoint) BearerAuth() http.Header {
	if !e.APIKey.Present() {
		return nil
	}
	return http.Header{"Authorization": {"Bearer " + e.APIKey.Reveal()}}
}

// JSON posts body and decodes the 2xx JSON reply into v. A reply that
// cannot be read is a body failure; one that is not JSON of v's shape, or
// is larger than MaxReplyBytes, is a protocol failure.
func (p Post) JSON(ctx context.Context, body []byte, v any) error {
	res, err := p.Do(ctx, body, "application/json")
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.ContentLength > MaxReplyBytes {
		return ProtocolError(p.Provider, p.URL, fmt.Sprintf("reply is larger than %d bytes", MaxReplyBytes))
	}
	raw, err := readReply(res)
	if err != nil {
		return ClassifyTransport(ctx, p.Provider, p.URL, StageBody, err, p.Secret)
	}
	if len(raw) > MaxReplyBytes {
		return ProtocolError(p.Provider, p.URL, fmt.Sprintf("reply is larger than %d bytes", MaxReplyBytes))
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return ClassifyTransport(ctx, p.Provider, p.URL, StageDecode, fmt.Errorf("decode reply: %w", err), p.Secret)
	}
	return nil
}

// readReply reads a body whole, sized by its Content-Length when it has
// one, and at most one byte past MaxReplyBytes.
func readReply(res *http.Response) ([]byte, error) {
	r := io.LimitReader(res.Body, MaxReplyBytes+1)
	if n := res.ContentLength; n > 0 {
		buf := bytes.NewBuffer(make([]byte, 0, n+1))
		_, err := buf.ReadFrom(r)
		return buf.Bytes(), err
	}
	return io.ReadAll(r)
}
