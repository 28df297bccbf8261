package messages_test

import (
	"testing"

	"github.com/holon-actors/holon-actors/messages"
)

func TestDeriveAuthority(t *testing.T) {
	const (
		opInstr = messages.AuthorityOperatorInstruction
		rtInstr = messages.AuthorityRuntimeInstruction
		signal  = messages.AuthorityIntegrationSignal
		ev      = messages.AuthorityExternalEvidence
	)
	tests := []struct {
		name      string
		origin    messages.OriginKind
		surface   messages.MessageDeliverySurface
		admission messages.AdmissionContext
		want      messages.AuthorityClass
	}{
		// Operator instruction only through authenticated or local paths.
		{"cli prompt", messages.OriginOperator, messages.SurfaceCLIPrompt, messages.AdmissionLocalProcess, opInstr},
		{"run once", messages.OriginOperator, messages.SurfaceRunOnce, messages.AdmissionLocalProcess, opInstr},
		{"http control prompt", messages.OriginOperator, messages.SurfaceHTTPControlPrompt, messages.AdmissionControlAuthenticated, opInstr},
		{"operator claimed on public enqueue", messages.OriginOperator, messages.SurfaceHTTPPublicEnqueue, messages.AdmissionPublicUnauthenticated, ev},
		{"operator claimed on public webhook", messages.OriginOperator, messages.SurfaceHTTPWebhook, messages.AdmissionPublicUnauthenticated, ev},
		{"operator claimed via callback capability", messages.OriginOperator, messages.SurfaceHTTPCallbackEnqueue, messages.AdmissionExternalTriggerCapability, ev},
		{"operator claimed by runtime", messages.OriginOperator, messages.SurfaceRuntimeSystem, messages.AdmissionRuntimeOwned, ev},
		{"public enqueue claiming control auth", messages.OriginOperator, messages.SurfaceHTTPPublicEnqueue, messages.AdmissionControlAuthenticated, ev},
		{"remote control prompt", messages.OriginOperator, messages.SurfaceRemoteControlPrompt, messages.AdmissionControlAuthenticated, opInstr},
		{"remote control prompt claiming local process", messages.OriginOperator, messages.SurfaceRemoteControlPrompt, messages.AdmissionLocalProcess, ev},
		{"control prompt claiming local process", messages.OriginOperator, messages.SurfaceHTTPControlPrompt, messages.AdmissionLocalProcess, ev},

		// Runtime instruction only for runtime origins on runtime-owned paths.
		{"timer scheduler", messages.OriginTimer, messages.SurfaceTimerScheduler, messages.AdmissionRuntimeOwned, rtInstr},
		{"runtime system", messages.OriginSystem, messages.SurfaceRuntimeSystem, messages.AdmissionRuntimeOwned, rtInstr},
		{"task rejoin", messages.OriginTask, messages.SurfaceTaskRejoin, messages.AdmissionRuntimeOwned, rtInstr},
		{"system origin on public enqueue", messages.OriginSystem, messages.SurfaceHTTPPublicEnqueue, messages.AdmissionPublicUnauthenticated, ev},
		{"task origin via control prompt", messages.OriginTask, messages.SurfaceHTTPControlPrompt, messages.AdmissionControlAuthenticated, ev},
		{"timer origin from cli", messages.OriginTimer, messages.SurfaceCLIPrompt, messages.AdmissionLocalProcess, ev},
		{"timer scheduler claiming public", messages.OriginTimer, messages.SurfaceTimerScheduler, messages.AdmissionPublicUnauthenticated, ev},

		// Integration signal for webhooks and callbacks on configured paths.
		{"webhook with capability", messages.OriginWebhook, messages.SurfaceHTTPWebhook, messages.AdmissionExternalTriggerCapability, signal},
		{"public webhook", messages.OriginWebhook, messages.SurfaceHTTPWebhook, messages.AdmissionPublicUnauthenticated, ev},
		{"webhook on public enqueue", messages.OriginWebhook, messages.SurfaceHTTPPublicEnqueue, messages.AdmissionPublicUnauthenticated, ev},
		{"callback enqueue", messages.OriginCallback, messages.SurfaceHTTPCallbackEnqueue, messages.AdmissionExternalTriggerCapability, signal},
		{"callback wake", messages.OriginCallback, messages.SurfaceHTTPCallbackWake, messages.AdmissionExternalTriggerCapability, signal},
		{"callback via control prompt", messages.OriginCallback, messages.SurfaceHTTPControlPrompt, messages.AdmissionControlAuthenticated, signal},
		{"webhook injected from cli", messages.OriginWebhook, messages.SurfaceCLIPrompt, messages.AdmissionLocalProcess, signal},
		{"callback relayed by runtime", messages.OriginCallback, messages.SurfaceRuntimeSystem, messages.AdmissionRuntimeOwned, signal},
		{"callback claiming public", messages.OriginCallback, messages.SurfaceHTTPCallbackEnqueue, messages.AdmissionPublicUnauthenticated, ev},

		// Channels are evidence whatever the path.
		{"channel on public enqueue", messages.OriginChannel, messages.SurfaceHTTPPublicEnqueue, messages.AdmissionPublicUnauthenticated, ev},
		{"channel via control prompt", messages.OriginChannel, messages.SurfaceHTTPControlPrompt, messages.AdmissionControlAuthenticated, ev},
		{"channel from cli", messages.OriginChannel, messages.SurfaceCLIPrompt, messages.AdmissionLocalProcess, ev},
		{"channel relayed by runtime", messages.OriginChannel, messages.SurfaceRuntimeSystem, messages.AdmissionRuntimeOwned, ev},

		// Unknown or missing labels earn nothing.
		{"no surface", messages.OriginOperator, "", messages.AdmissionLocalProcess, ev},
		{"no admission", messages.OriginOperator, messages.SurfaceCLIPrompt, "", ev},
		{"unknown origin", "root", messages.SurfaceCLIPrompt, messages.AdmissionLocalProcess, ev},
		{"unknown surface", messages.OriginOperator, "ssh", messages.AdmissionLocalProcess, ev},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := messages.DeriveAuthority(tt.origin, tt.surface, tt.admission); got != tt.want {
				t.Errorf("DeriveAuthority(%s, %s, %s) = %s, want %s", tt.origin, tt.surface, tt.admission, got, tt.want)
			}
		})
	}
}

// TestDeriveAuthorityInvariants sweeps every (origin, surface, admission)
// combination and checks the properties the table must never break.
func TestDeriveAuthorityInvariants(t *testing.T) {
	for _, o := range messages.EnumValues["OriginKind"] {
		for _, s := range messages.EnumValues["MessageDeliverySurface"] {
			for _, a := range messages.EnumValues["AdmissionContext"] {
				origin, surface, admission := messages.OriginKind(o), messages.MessageDeliverySurface(s), messages.AdmissionContext(a)
				got := messages.DeriveAuthority(origin, surface, admission)
				if !got.Valid() {
					t.Errorf("DeriveAuthority(%s, %s, %s) = %q, not a valid class", o, s, a, got)
				}
				check := func(ok bool, rule string) {
					if !ok {
						t.Errorf("DeriveAuthority(%s, %s, %s) = %s breaks: %s", o, s, a, got, rule)
					}
				}
				evidence := got == messages.AuthorityExternalEvidence
				check(admission != messages.AdmissionPublicUnauthenticated || evidence,
					"public_unauthenticated admission is always evidence")
				check(origin != messages.OriginChannel || evidence, "channel is always evidence")
				check(got != messages.AuthorityOperatorInstruction || origin == messages.OriginOperator,
					"only the operator origin gives operator_instruction")
				check(got != messages.AuthorityRuntimeInstruction || admission == messages.AdmissionRuntimeOwned,
					"runtime_instruction needs runtime_owned admission")
				check(got != messages.AuthorityIntegrationSignal ||
					origin == messages.OriginWebhook || origin == messages.OriginCallback,
					"integration_signal is for webhooks and callbacks")
			}
		}
	}
}
