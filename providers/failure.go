package providers

import (
	"encoding/json"
	"errors"
	"strconv"

	"github.com/holon-actors/holon-actors/messages"
)

// FailureArtifact is the operator-facing failure shape of runtime-spec-v0
// "Failure Artifact Envelope". Metadata carries bounded structured detail,
// never raw payloads or credentials.
type FailureArtifact struct {
	Category    messages.FailureCategory `json:"category"`
	Summary     string                   `json:"summary"`
	Provider    string                   `json:"provider,omitempty"`
	ModelRef    string                   `json:"model_ref,omitempty"`
	Status      int                      `json:"status,omitempty"`
	TaskID      string                   `json:"task_id,omitempty"`
	ExitStatus  *int                     `json:"exit_status,omitempty"`
	SourceChain []string                 `json:"source_chain,omitempty"`
	Metadata    map[string]string        `json:"metadata,omitempty"`
}

// CategoryOf returns the failure category of a provider failure kind:
// protocol for contract and response-shape failures, runtime for a missing
// configuration or a cancelled call, transport for everything that happened
// on the way to and from the provider, unknown otherwise.
func CategoryOf(k ErrorKind) messages.FailureCategory {
	switch k {
	case KindProtocol, KindUnsupported:
		return messages.FailureProtocol
	case KindNotConfigured, KindCanceled:
		return messages.FailureRuntime
	case KindTimeout, KindConnection, KindRateLimited, KindServer, KindAuth, KindBadRequest,
		KindContextLength, KindQuotaExhausted, KindCircuitOpen, KindIncomplete:
		return messages.FailureTransport
	}
	return messages.FailureUnknown
}

// ArtifactOf normalizes a provider round's failure into a FailureArtifact.
// It reads the last attempt's *Error and, when err is a *ChainError, its
// timeline; any other error becomes an unknown artifact.
func ArtifactOf(err error) FailureArtifact {
	var pe *Error
	if !errors.As(err, &pe) {
		return FailureArtifact{Category: messages.FailureUnknown, Summary: err.Error(), SourceChain: SourceChain(err)}
	}
	a := FailureArtifact{Category: CategoryOf(pe.Kind), Summary: Summary(pe), Provider: providerOf(pe.Provider),
		ModelRef: pe.Provider, Status: pe.Status, SourceChain: SourceChain(err),
		Metadata: map[string]string{"failure_kind": string(pe.Kind), "disposition": pe.Kind.Disposition()}}
	if pe.Code != "" {
		a.Metadata["provider_code"] = pe.Code
	}
	if d := pe.Diagnostics; d != nil {
		a.Metadata["stage"] = d.Stage
		if len(d.SourceChain) > 0 {
			a.SourceChain = d.SourceChain
		}
	}
	if tl, ok := TimelineOf(err); ok {
		a.Metadata["attempts"] = strconv.Itoa(len(tl.Attempts))
		a.Metadata["requested_model_ref"] = tl.RequestedModelRef
	}
	return a
}

// Summary is the concise operator-facing sentence for a provider failure.
func Summary(pe *Error) string {
	switch pe.Kind {
	case KindContextLength:
		return "The conversation no longer fits the context window of " + pe.Provider + "; the turn stopped and will not continue by itself."
	case KindAuth:
		return pe.Provider + " rejected the credential (HTTP " + strconv.Itoa(pe.Status) + ")."
	case KindQuotaExhausted:
		return pe.Provider + " reports the account's quota is exhausted."
	case KindRateLimited:
		return pe.Provider + " is rate limiting requests."
	case KindTimeout:
		return "The request to " + pe.Provider + " timed out."
	case KindConnection:
		return "Could not connect to " + pe.Provider + "."
	case KindServer:
		return pe.Provider + " failed with a server error (HTTP " + strconv.Itoa(pe.Status) + ")."
	case KindCircuitOpen:
		return pe.Provider + " is failing repeatedly; calls are paused while its circuit breaker is open."
	case KindUnsupported:
		return pe.Provider + " has an unsupported transport contract: " + pe.Message + "."
	case KindProtocol:
		return pe.Provider + " answered with an invalid or unsupported response: " + pe.Message + "."
	}
	return "The model call to " + pe.Provider + " failed (" + string(pe.Kind) + "): " + pe.Message + "."
}

// FailureOf returns the journal form of a provider round's failure: the
// artifact's category, the failure kind as the stable code, and as Details
// the artifact plus the attempt timeline, if any.
func FailureOf(err error) messages.Failure {
	a := ArtifactOf(err)
	details := struct {
		FailureArtifact FailureArtifact          `json:"failure_artifact"`
		Timeline        *ProviderAttemptTimeline `json:"provider_attempt_timeline,omitempty"`
	}{FailureArtifact: a}
	if tl, ok := TimelineOf(err); ok {
		details.Timeline = &tl
	}
	raw, _ := json.Marshal(details) // plain data: cannot fail
	return messages.Failure{Category: a.Category, Code: string(KindOf(err)), Message: err.Error(),
		Summary: a.Summary, Details: raw}
}
