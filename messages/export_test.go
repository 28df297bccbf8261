package messages

// EnumValues exposes every enum's value list, by Go type name, so black-box
// tests can check their tables are complete.
var EnumValues = map[string][]string{
	"MessageKind":            strs(messageKinds),
	"TriggerKind":            strs(triggerKinds),
	"Priority":               strs(priorities),
	"TrustLevel":             strs(trustLevels),
	"AuthorityClass":         strs(authorityClasses),
	"MessageDeliverySurface": strs(deliverySurfaces),
	"AdmissionContext":       strs(admissionContexts),
	"OriginKind":             strs(originKinds),
	"BodyType":               strs(bodyTypes),
	"AgentStatus":            strs(agentStatuses),
	"AgentKind":              strs(agentKinds),
	"Visibility":             strs(visibilities),
	"Ownership":              strs(ownerships),
	"BriefKind":              strs(briefKinds),
	"ClosureOutcome":         strs(closureOutcomes),
	"WaitingReason":          strs(waitingReasons),
	"TurnTerminalKind":       strs(turnTerminalKinds),
	"FailureCategory":        strs(failureCategories),
	"ToolStatus":             strs(toolStatuses),
	"WorkItemState":          strs(workItemStates),
	"PlanStatus":             strs(planStatuses),
	"TodoState":              strs(todoStates),
	"TimerPurpose":           strs(timerPurposes),
	"MissedPolicy":           strs(missedPolicies),
	"OverlapPolicy":          strs(overlapPolicies),
}

func strs[T ~string](e enum[T]) []string {
	out := make([]string, len(e.values))
	for i, v := range e.values {
		out[i] = string(v)
	}
	return out
}

// PayloadDecoderTypes lists the event types that have a payload decoder.
func PayloadDecoderTypes() []EventType {
	ts := make([]EventType, 0, len(payloadDecoders))
	for t := range payloadDecoders {
		ts = append(ts, t)
	}
	return ts
}

// DecodedCopy exposes decodedCopy, the decode-free copy NewEventDecoded
// applies, so black-box tests can hold it to the decode.
var DecodedCopy = decodedCopy
