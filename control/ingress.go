package control

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"
	"sync"

	"golang.org/x/time/rate"

	"github.com/holon-actors/holon-actors/messages"
)

// Limits of the unauthenticated surfaces (trigger deliveries and public
// ingress): a global rate for every request, whatever its token, and one
// per trigger.
const (
	publicRate       = 50 // requests per second over all public routes
	publicBurst      = 100
	perTriggerRate   = 5 // deliveries per second per trigger
	perTriggerBurst  = 20
	maxPublicBody    = 64 << 10
	maxDeliveryIDLen = 200
)

// limiters rate-limits the public routes.
type limiters struct {
	global *rate.Limiter

	mu  sync.Mutex
	per map[string]*rate.Limiter // guarded by mu
}

func newLimiters(perSec float64, burst int) *limiters {
	if perSec <= 0 {
		perSec = publicRate
	}
	if burst <= 0 {
		burst = publicBurst
	}
	return &limiters{global: rate.NewLimiter(rate.Limit(perSec), burst), per: map[string]*rate.Limiter{}}
}

func (l *limiters) allow(key string) bool {
	l.mu.Lock()
	lim := l.per[key]
	if lim == nil {
		lim = rate.NewLimiter(perTriggerRate, perTriggerBurst)
		l.per[key] = lim
	}
	l.mu.Unlock()
	return lim.Allow()
}

// deliveryHeaders are the usual webhook headers naming a delivery, in the
// order deliveryID reads them.
var deliveryHeaders = []string{"Idempotency-Key", "X-GitHub-Delivery", "Webhook-Id", "X-Delivery-Id"}

// deliveryID is the caller's id for a delivery: the body's, else the usual
// webhook headers'. "" when there is none (no dedupe).
func deliveryID(r *http.Request, fromBody string) string {
	id := fromBody
	for _, h := range deliveryHeaders {
		if id == "" {
			id = r.Header.Get(h)
		}
	}
	if len(id) > maxDeliveryIDLen {
		id = id[:maxDeliveryIDLen]
	}
	return id
}

// TriggerDelivery is the optional body of POST /triggers/{token}.
type TriggerDelivery struct {
	Source     string `json:"source,omitempty"`
	Reason     string `json:"reason,omitempty"`
	DeliveryID string `json:"delivery_id,omitempty"`
}

// TriggerResult answers an accepted delivery.
type TriggerResult struct {
	Accepted    bool   `json:"accepted"`
	Duplicate   bool   `json:"duplicate"`
	Disposition string `json:"disposition,omitempty"`
}

// errNoTrigger is the one answer for an unknown or a revoked token.
var errNoTrigger = errorf(http.StatusNotFound, KindNotFound, "ask the agent's operator for its current trigger URL", "no such trigger")

func (s *Server) deliverTrigger(w http.ResponseWriter, r *http.Request) {
	if !s.publicAllowed(r) {
		writeError(w, errorf(http.StatusTooManyRequests, KindBackpressure, "slow down", "too many requests"))
		return
	}
	if s.cfg.Triggers == nil {
		writeError(w, errNoTrigger)
		return
	}
	tr, ok, err := s.cfg.Triggers.Lookup(r.Context(), r.PathValue("token"))
	if err != nil {
		s.triggerStoreFailed(w, err)
		return
	}
	if !ok {
		writeError(w, errNoTrigger)
		return
	}
	if !s.public.allow("trigger:" + tr.ID) {
		writeError(w, errorf(http.StatusTooManyRequests, KindBackpressure, "slow down", "too many deliveries for this trigger"))
		return
	}
	var d TriggerDelivery
	r.Body = http.MaxBytesReader(w, r.Body, maxPublicBody)
	if e := decodeBody(w, r, &d); e != nil {
		writeError(w, e)
		return
	}
	delivery := deliveryID(r, d.DeliveryID)
	first, err := s.cfg.Triggers.Reserve(r.Context(), tr.ID, delivery, s.cfg.Clock.Now())
	if err != nil {
		s.triggerStoreFailed(w, err)
		return
	}
	if !first {
		writeJSON(w, http.StatusAccepted, TriggerResult{Accepted: true, Duplicate: true})
		return
	}
	source := "external_trigger:" + tr.ID
	if d.Source != "" {
		source += ":" + oneLine(d.Source)
	}
	reason := oneLine(d.Reason)
	if reason == "" {
		reason = "external trigger delivery"
	}
	disp, err := s.cfg.Runtime.WakeHint(r.Context(), tr.AgentID, source, reason, true)
	if err != nil {
		if rerr := s.cfg.Triggers.Release(context.WithoutCancel(r.Context()), tr.ID, delivery); rerr != nil {
			s.cfg.Log.Warn().Err(rerr).Str("trigger", tr.ID).Msg("trigger delivery not released")
		}
		writeError(w, runtimeError(err))
		return
	}
	writeJSON(w, http.StatusAccepted, TriggerResult{Accepted: true, Disposition: string(disp)})
}

// capability renders tr as the descriptor with its URL.
func (s *Server) capability(tr Trigger, token string) TriggerCapability {
	base := strings.TrimSuffix(s.cfg.Advertise, "/")
	if base == "" && s.cfg.Info.HTTPAddr != "" {
		base = "http://" + s.cfg.Info.HTTPAddr
	}
	if base == "" {
		base = "unix://" + s.cfg.Info.SocketPath
	}
	return TriggerCapability{ID: tr.ID, TriggerURL: base + "/triggers/" + token, AgentID: tr.AgentID,
		DeliveryMode: tr.DeliveryMode, Status: tr.Status, Note: s.advertiseNote()}
}

func (s *Server) ensureTrigger(w http.ResponseWriter, r *http.Request) {
	id, ok := s.agentID(w, r)
	if !ok {
		return
	}
	if s.cfg.Triggers == nil {
		writeError(w, errorf(http.StatusConflict, KindConflict, "this runtime has no trigger store", "external triggers are off"))
		return
	}
	tr, token, created, err := s.cfg.Triggers.Ensure(r.Context(), id, s.cfg.Clock.Now())
	if err != nil {
		writeError(w, runtimeError(err))
		return
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	writeJSON(w, status, s.capability(tr, token))
}

func (s *Server) revokeTrigger(w http.ResponseWriter, r *http.Request) {
	id, ok := s.agentID(w, r)
	if !ok {
		return
	}
	if s.cfg.Triggers == nil {
		writeError(w, errorf(http.StatusNotFound, KindNotFound, "", "no trigger"))
		return
	}
	tr, ok, err := s.cfg.Triggers.Revoke(r.Context(), id, s.cfg.Clock.Now())
	switch {
	case err != nil:
		writeError(w, runtimeError(err))
	case !ok:
		writeError(w, errorf(http.StatusNotFound, KindNotFound, "create one with POST /control/agents/"+id+"/trigger", "agent %q has no active trigger", id))
	default:
		writeJSON(w, http.StatusOK, tr)
	}
}

// IngressMessage is the body of POST /ingress/agents/{id}/messages: input
// from an untrusted channel or webhook. Its provenance is fixed by the
// runtime: webhook origin, untrusted, external evidence, normal priority.
type IngressMessage struct {
	Source     string          `json:"source"`
	Event      string          `json:"event,omitempty"`
	Text       string          `json:"text,omitempty"`
	JSON       json.RawMessage `json:"json,omitempty"`
	DeliveryID string          `json:"delivery_id,omitempty"`
}

func (s *Server) publicIngress(w http.ResponseWriter, r *http.Request) {
	if !s.cfg.PublicIngress {
		writeError(w, errorf(http.StatusNotFound, KindNotFound, "the operator can enable it with --public-ingress", "public ingress is off"))
		return
	}
	if !s.public.global.Allow() || !s.public.allow("ingress:"+r.PathValue("id")) {
		writeError(w, errorf(http.StatusTooManyRequests, KindBackpressure, "slow down", "too many requests"))
		return
	}
	var m IngressMessage
	r.Body = http.MaxBytesReader(w, r.Body, maxPublicBody)
	if e := decodeBody(w, r, &m); e != nil {
		writeError(w, e)
		return
	}
	id, ok := s.agentID(w, r)
	if !ok {
		return
	}
	env, e := s.ingressEnvelope(r, id, m)
	if e != nil {
		writeError(w, e)
		return
	}
	res, err := s.cfg.Runtime.Admit(r.Context(), env)
	if err != nil {
		writeError(w, runtimeError(err))
		return
	}
	writeJSON(w, http.StatusAccepted, PromptResponse{AgentID: id, MessageID: res.MessageID, EventSeq: res.Seq, Duplicate: res.Duplicate})
}

// ingressEnvelope builds the envelope of a public delivery. A delivery id
// makes the message id deterministic, so a repeated delivery is admitted
// once.
func (s *Server) ingressEnvelope(r *http.Request, agent string, m IngressMessage) (messages.MessageEnvelope, *Error) {
	if m.Source == "" {
		return messages.MessageEnvelope{}, errorf(http.StatusUnprocessableEntity, KindInvalid, "name the sending system in \"source\"", "source is empty")
	}
	var body messages.Body
	switch {
	case strings.TrimSpace(m.Text) != "" && len(m.JSON) == 0:
		body = messages.TextBody(m.Text)
	case m.Text == "" && len(m.JSON) > 0:
		body = messages.Body{Type: messages.BodyJSON, Value: m.JSON}
	default:
		return messages.MessageEnvelope{}, errorf(http.StatusUnprocessableEntity, KindInvalid, "send exactly one of \"text\" and \"json\"", "the message needs a text or a json body")
	}
	event := m.Event
	if event == "" {
		event = "message"
	}
	env := messages.MessageEnvelope{ID: messages.NewID("msg"), AgentID: agent, CreatedAt: s.cfg.Clock.Now(),
		Kind: messages.KindWebhookEvent, Origin: messages.WebhookOrigin(m.Source, event), Body: body,
		Priority: messages.PriorityNormal, Trust: messages.UntrustedExternal, // unauthenticated, whatever it claims
		DeliverySurface:  messages.SurfaceHTTPPublicEnqueue,
		AdmissionContext: messages.AdmissionPublicUnauthenticated}
	if d := deliveryID(r, m.DeliveryID); d != "" {
		sum := sha256.Sum256([]byte(agent + "\x00" + m.Source + "\x00" + d))
		env.ID = "msg_ingress_" + hex.EncodeToString(sum[:12])
	}
	return env, nil
}
