package remote

import (
	"encoding/json"
	"fmt"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/messages/messagespb"
	"github.com/holon-actors/holon-actors/remote/remotepb"
)

// streamEvent is e as the HTTP events surface serves it.
func streamEvent(e *remotepb.StreamEvent) control.StreamEvent {
	p, s := e.GetProvenance(), e.GetPresentation()
	out := control.StreamEvent{
		Provenance: control.Provenance{EventID: p.GetEventId(), EventSeq: p.GetEventSeq(), Kind: messages.EventType(p.GetKind()),
			AgentID: p.GetAgentId(), Replayed: p.GetReplayed(), MessageID: p.GetMessageId(), Origin: origin(p.GetOrigin()),
			Trust: messages.TrustLevel(p.GetTrust()), AuthorityClass: messages.AuthorityClass(p.GetAuthorityClass()),
			DeliverySurface:  messages.MessageDeliverySurface(p.GetDeliverySurface()),
			AdmissionContext: messages.AdmissionContext(p.GetAdmissionContext()), TaskID: p.GetTaskId(),
			WorkItemID: p.GetWorkItemId(), CorrelationID: p.GetCorrelationId(), CausationID: p.GetCausationId()},
		Presentation: control.Presentation{Visibility: control.Visibility(s.GetVisibility()), Category: s.GetCategory(),
			Title: s.GetTitle(), Body: s.GetBody(), Summary: s.GetSummary(), SourceEventKind: messages.EventType(s.GetSourceEventKind())},
		Payload: json.RawMessage(e.GetPayload()),
	}
	if p.GetAt() != nil {
		out.Provenance.At = p.GetAt().AsTime()
	}
	return out
}

// origin is o in the messages vocabulary; nil stays nil.
func origin(o *messagespb.Origin) *messages.Origin {
	switch k := o.GetKind().(type) {
	case *messagespb.Origin_Operator:
		return &messages.Origin{Kind: messages.OriginOperator, ActorID: k.Operator.GetActorId()}
	case *messagespb.Origin_Channel:
		return &messages.Origin{Kind: messages.OriginChannel, ChannelID: k.Channel.GetChannelId(), SenderID: k.Channel.GetSenderId()}
	case *messagespb.Origin_Webhook:
		return &messages.Origin{Kind: messages.OriginWebhook, Source: k.Webhook.GetSource(), EventType: k.Webhook.GetEventType()}
	case *messagespb.Origin_Callback:
		return &messages.Origin{Kind: messages.OriginCallback, DescriptorID: k.Callback.GetDescriptorId(), Source: k.Callback.GetSource()}
	case *messagespb.Origin_Timer:
		return &messages.Origin{Kind: messages.OriginTimer, TimerID: k.Timer.GetTimerId()}
	case *messagespb.Origin_System:
		return &messages.Origin{Kind: messages.OriginSystem, Subsystem: k.System.GetSubsystem()}
	case *messagespb.Origin_Task:
		return &messages.Origin{Kind: messages.OriginTask, TaskID: k.Task.GetTaskId()}
	}
	return nil
}

// eventsPage is p as the HTTP API's page.
func eventsPage(p *remotepb.EventsPage) control.EventsPage {
	out := control.EventsPage{AgentID: p.GetAgentId(), NextAfter: p.GetNextAfter(), HighestSeq: p.GetHighestSeq(),
		Events: make([]control.StreamEvent, 0, len(p.GetEvents()))}
	for _, e := range p.GetEvents() {
		out.Events = append(out.Events, streamEvent(e))
	}
	return out
}

// decodeJSON reads a record the node sent as the HTTP API's JSON.
func decodeJSON(what string, raw []byte, out any) error {
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("remote: decode %s from the node: %w", what, err)
	}
	return nil
}
