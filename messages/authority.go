package messages

// AuthorityClass records how the runtime treats a message's content: as
// instruction, signal or evidence. It is derived at admission (DeriveAuthority)
// and never taken from a public caller. It labels prompts, transcripts and
// audit records; it does not change the per-turn tool catalog.
type AuthorityClass string

// The authority classes.
const (
	// AuthorityOperatorInstruction is primary operator instruction that can
	// define task scope and constraints.
	AuthorityOperatorInstruction AuthorityClass = "operator_instruction"
	// AuthorityRuntimeInstruction is a runtime-owned continuation or rejoin.
	AuthorityRuntimeInstruction AuthorityClass = "runtime_instruction"
	// AuthorityIntegrationSignal is a structured external signal admitted
	// through a configured or capability-bearing integration path.
	AuthorityIntegrationSignal AuthorityClass = "integration_signal"
	// AuthorityExternalEvidence is external content to inspect as evidence,
	// not authority.
	AuthorityExternalEvidence AuthorityClass = "external_evidence"
)

var authorityClasses = enum[AuthorityClass]{name: "authority class", values: []AuthorityClass{
	AuthorityOperatorInstruction, AuthorityRuntimeInstruction,
	AuthorityIntegrationSignal, AuthorityExternalEvidence,
}}

// String returns the AuthorityClass as spelled in JSON.
func (a AuthorityClass) String() string { return string(a) }

// Valid reports whether a is one of the spec's authority classes.
func (a AuthorityClass) Valid() bool { return authorityClasses.valid(a) }

// UnmarshalText parses an authority class, rejecting unknown values.
func (a *AuthorityClass) UnmarshalText(text []byte) error { return authorityClasses.unmarshal(a, text) }

// ParseAuthorityClass returns the AuthorityClass spelled s or an error
// wrapping ErrUnknownValue.
func ParseAuthorityClass(s string) (AuthorityClass, error) { return authorityClasses.parse(s) }

// MessageDeliverySurface names the message-producing ingress that admitted a
// message. Pure control-plane mutations are audit events, not messages, and
// have no surface.
type MessageDeliverySurface string

// The delivery surfaces.
const (
	SurfaceCLIPrompt           MessageDeliverySurface = "cli_prompt"
	SurfaceRunOnce             MessageDeliverySurface = "run_once"
	SurfaceHTTPPublicEnqueue   MessageDeliverySurface = "http_public_enqueue"
	SurfaceHTTPWebhook         MessageDeliverySurface = "http_webhook"
	SurfaceHTTPCallbackEnqueue MessageDeliverySurface = "http_callback_enqueue"
	SurfaceHTTPCallbackWake    MessageDeliverySurface = "http_callback_wake"
	SurfaceHTTPControlPrompt   MessageDeliverySurface = "http_control_prompt"
	SurfaceTimerScheduler      MessageDeliverySurface = "timer_scheduler"
	SurfaceRuntimeSystem       MessageDeliverySurface = "runtime_system"
	SurfaceTaskRejoin          MessageDeliverySurface = "task_rejoin"
	// SurfaceRemoteControlPrompt is a prompt from a remote client, over
	// the Proto.Actor remote protocol with a client certificate.
	SurfaceRemoteControlPrompt MessageDeliverySurface = "remote_control_prompt"
)

var deliverySurfaces = enum[MessageDeliverySurface]{name: "delivery surface", values: []MessageDeliverySurface{
	SurfaceCLIPrompt, SurfaceRunOnce, SurfaceHTTPPublicEnqueue, SurfaceHTTPWebhook,
	SurfaceHTTPCallbackEnqueue, SurfaceHTTPCallbackWake, SurfaceHTTPControlPrompt,
	SurfaceTimerScheduler, SurfaceRuntimeSystem, SurfaceTaskRejoin, SurfaceRemoteControlPrompt,
}}

// String returns the MessageDeliverySurface as spelled in JSON.
func (s MessageDeliverySurface) String() string { return string(s) }

// Valid reports whether s is one of the spec's delivery surfaces.
func (s MessageDeliverySurface) Valid() bool { return deliverySurfaces.valid(s) }

// UnmarshalText parses a delivery surface, rejecting unknown values.
func (s *MessageDeliverySurface) UnmarshalText(text []byte) error {
	return deliverySurfaces.unmarshal(s, text)
}

// ParseMessageDeliverySurface returns the MessageDeliverySurface spelled s or
// an error wrapping ErrUnknownValue.
func ParseMessageDeliverySurface(s string) (MessageDeliverySurface, error) {
	return deliverySurfaces.parse(s)
}

// AdmissionContext is the admission posture an ingress used.
type AdmissionContext string

// The admission contexts.
const (
	AdmissionPublicUnauthenticated     AdmissionContext = "public_unauthenticated"
	AdmissionControlAuthenticated      AdmissionContext = "control_authenticated"
	AdmissionExternalTriggerCapability AdmissionContext = "external_trigger_capability"
	AdmissionLocalProcess              AdmissionContext = "local_process"
	AdmissionRuntimeOwned              AdmissionContext = "runtime_owned"
)

var admissionContexts = enum[AdmissionContext]{name: "admission context", values: []AdmissionContext{
	AdmissionPublicUnauthenticated, AdmissionControlAuthenticated,
	AdmissionExternalTriggerCapability, AdmissionLocalProcess, AdmissionRuntimeOwned,
}}

// String returns the AdmissionContext as spelled in JSON.
func (a AdmissionContext) String() string { return string(a) }

// Valid reports whether a is one of the spec's admission contexts.
func (a AdmissionContext) Valid() bool { return admissionContexts.valid(a) }

// UnmarshalText parses an admission context, rejecting unknown values.
func (a *AdmissionContext) UnmarshalText(text []byte) error {
	return admissionContexts.unmarshal(a, text)
}

// ParseAdmissionContext returns the AdmissionContext spelled s or an error
// wrapping ErrUnknownValue.
func ParseAdmissionContext(s string) (AdmissionContext, error) { return admissionContexts.parse(s) }

// surfaceAdmissions lists, per delivery surface, the admission contexts that
// surface can legitimately report. A pair outside this table is inconsistent
// (a public enqueue claiming control authentication, say) and earns no
// authority. Webhooks may be configured with or without a capability token.
var surfaceAdmissions = map[MessageDeliverySurface][]AdmissionContext{
	SurfaceCLIPrompt:           {AdmissionLocalProcess},
	SurfaceRunOnce:             {AdmissionLocalProcess},
	SurfaceHTTPPublicEnqueue:   {AdmissionPublicUnauthenticated},
	SurfaceHTTPWebhook:         {AdmissionExternalTriggerCapability, AdmissionPublicUnauthenticated},
	SurfaceHTTPCallbackEnqueue: {AdmissionExternalTriggerCapability},
	SurfaceHTTPCallbackWake:    {AdmissionExternalTriggerCapability},
	SurfaceHTTPControlPrompt:   {AdmissionControlAuthenticated},
	SurfaceTimerScheduler:      {AdmissionRuntimeOwned},
	SurfaceRuntimeSystem:       {AdmissionRuntimeOwned},
	SurfaceTaskRejoin:          {AdmissionRuntimeOwned},
	SurfaceRemoteControlPrompt: {AdmissionControlAuthenticated},
}

type authorityKey struct {
	origin    OriginKind
	admission AdmissionContext
}

// authorityGrants is the whole authority policy: the only (origin, admission)
// pairs that earn more than external_evidence. Everything else, including
// every channel message, every public_unauthenticated admission, and an
// operator origin claimed through a public or runtime path, is evidence.
//
//	origin                admission                                     authority
//	operator              control_authenticated, local_process          operator_instruction
//	system, task, timer   runtime_owned                                 runtime_instruction
//	webhook, callback     external_trigger_capability,                  integration_signal
//	                      control_authenticated, local_process,
//	                      runtime_owned
var authorityGrants = map[authorityKey]AuthorityClass{
	{OriginOperator, AdmissionControlAuthenticated}: AuthorityOperatorInstruction,
	{OriginOperator, AdmissionLocalProcess}:         AuthorityOperatorInstruction,

	{OriginSystem, AdmissionRuntimeOwned}: AuthorityRuntimeInstruction,
	{OriginTask, AdmissionRuntimeOwned}:   AuthorityRuntimeInstruction,
	{OriginTimer, AdmissionRuntimeOwned}:  AuthorityRuntimeInstruction,

	{OriginWebhook, AdmissionExternalTriggerCapability}:  AuthorityIntegrationSignal,
	{OriginWebhook, AdmissionControlAuthenticated}:       AuthorityIntegrationSignal,
	{OriginWebhook, AdmissionLocalProcess}:               AuthorityIntegrationSignal,
	{OriginWebhook, AdmissionRuntimeOwned}:               AuthorityIntegrationSignal,
	{OriginCallback, AdmissionExternalTriggerCapability}: AuthorityIntegrationSignal,
	{OriginCallback, AdmissionControlAuthenticated}:      AuthorityIntegrationSignal,
	{OriginCallback, AdmissionLocalProcess}:              AuthorityIntegrationSignal,
	{OriginCallback, AdmissionRuntimeOwned}:              AuthorityIntegrationSignal,
}

// DeriveAuthority returns the authority class the runtime assigns, at
// admission, to a message from an origin of the given kind that arrived
// through surface under admission. Admission code must call it instead of
// accepting a caller-supplied class. A surface and admission context that do
// not belong together, or unknown values, yield AuthorityExternalEvidence.
func DeriveAuthority(origin OriginKind, surface MessageDeliverySurface, admission AdmissionContext) AuthorityClass {
	if !surfaceAdmits(surface, admission) {
		return AuthorityExternalEvidence
	}
	if c, ok := authorityGrants[authorityKey{origin, admission}]; ok {
		return c
	}
	return AuthorityExternalEvidence
}

func surfaceAdmits(surface MessageDeliverySurface, admission AdmissionContext) bool {
	for _, a := range surfaceAdmissions[surface] {
		if a == admission {
			return true
		}
	}
	return false
}
