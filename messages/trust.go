package messages

// TrustLevel is the transitional compatibility label for older records and
// callers. New contracts use AuthorityClass; trust is kept on every envelope
// and in logs, but it is not the primary policy model.
type TrustLevel string

// The trust levels.
const (
	TrustedOperator    TrustLevel = "trusted_operator"
	TrustedSystem      TrustLevel = "trusted_system"
	TrustedIntegration TrustLevel = "trusted_integration"
	UntrustedExternal  TrustLevel = "untrusted_external"
)

var trustLevels = enum[TrustLevel]{name: "trust level", values: []TrustLevel{
	TrustedOperator, TrustedSystem, TrustedIntegration, UntrustedExternal,
}}

// String returns the TrustLevel as spelled in JSON.
func (t TrustLevel) String() string { return string(t) }

// Valid reports whether t is one of the spec's trust levels.
func (t TrustLevel) Valid() bool { return trustLevels.valid(t) }

// UnmarshalText parses a trust level, rejecting unknown values.
func (t *TrustLevel) UnmarshalText(text []byte) error { return trustLevels.unmarshal(t, text) }

// ParseTrustLevel returns the TrustLevel spelled s or an error wrapping
// ErrUnknownValue.
func ParseTrustLevel(s string) (TrustLevel, error) { return trustLevels.parse(s) }

// defaultTrust is the spec's "Trust Defaults" table.
var defaultTrust = map[OriginKind]TrustLevel{
	OriginOperator: TrustedOperator,
	OriginSystem:   TrustedSystem,
	OriginTask:     TrustedSystem,
	OriginTimer:    TrustedSystem,
	OriginCallback: TrustedIntegration, // validated via the capability token
	OriginWebhook:  TrustedIntegration,
	OriginChannel:  UntrustedExternal,
}

// DefaultTrust returns the trust level the spec assigns to messages from an
// origin of kind k, and UntrustedExternal for an invalid kind.
func DefaultTrust(k OriginKind) TrustLevel {
	if t, ok := defaultTrust[k]; ok {
		return t
	}
	return UntrustedExternal
}
