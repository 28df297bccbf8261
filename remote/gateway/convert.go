package gateway

import (
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/messages/messagespb"
	"github.com/holon-actors/holon-actors/remote/remotepb"
)

func eventsPage(p control.EventsPage) *remotepb.EventsPage {
	out := &remotepb.EventsPage{AgentId: p.AgentID, NextAfter: p.NextAfter, HighestSeq: p.HighestSeq,
		Events: make([]*remotepb.StreamEvent, len(p.Events))}
	for i, ev := range p.Events {
		out.Events[i] = streamEvent(ev)
	}
	return out
}

func streamEvent(ev control.StreamEvent) *remotepb.StreamEvent {
	pv, pr := ev.Provenance, ev.Presentation
	return &remotepb.StreamEvent{
		Provenance: &remotepb.Provenance{EventId: pv.EventID, EventSeq: pv.EventSeq, At: timestamppb.New(pv.At),
			Kind: string(pv.Kind), AgentId: pv.AgentID, Replayed: pv.Replayed, MessageId: pv.MessageID,
			Origin: origin(pv.Origin), Trust: string(pv.Trust), AuthorityClass: string(pv.AuthorityClass),
			DeliverySurface: string(pv.DeliverySurface), AdmissionContext: string(pv.AdmissionContext),
			TaskId: pv.TaskID, WorkItemId: pv.WorkItemID, CorrelationId: pv.CorrelationID, CausationId: pv.CausationID},
		Presentation: &remotepb.Presentation{Visibility: string(pr.Visibility), Category: pr.Category, Title: pr.Title,
			Body: pr.Body, Summary: pr.Summary, SourceEventKind: string(pr.SourceEventKind)},
		Payload: ev.Payload,
	}
}

// origin is o as the messages.proto oneof, nil for none.
func origin(o *messages.Origin) *messagespb.Origin {
	if o == nil {
		return nil
	}
	switch o.Kind {
	case messages.OriginOperator:
		return &messagespb.Origin{Kind: &messagespb.Origin_Operator{Operator: &messagespb.OperatorOrigin{ActorId: o.ActorID}}}
	case messages.OriginChannel:
		return &messagespb.Origin{Kind: &messagespb.Origin_Channel{Channel: &messagespb.ChannelOrigin{ChannelId: o.ChannelID, SenderId: o.SenderID}}}
	case messages.OriginWebhook:
		return &messagespb.Origin{Kind: &messagespb.Origin_Webhook{Webhook: &messagespb.WebhookOrigin{Source: o.Source, EventType: o.EventType}}}
	case messages.OriginCallback:
		return &messagespb.Origin{Kind: &messagespb.Origin_Callback{Callback: &messagespb.CallbackOrigin{DescriptorId: o.DescriptorID, Source: o.Source}}}
	case messages.OriginTimer:
		return &messagespb.Origin{Kind: &messagespb.Origin_Timer{Timer: &messagespb.TimerOrigin{TimerId: o.TimerID}}}
	case messages.OriginSystem:
		return &messagespb.Origin{Kind: &messagespb.Origin_System{System: &messagespb.SystemOrigin{Subsystem: o.Subsystem}}}
	case messages.OriginTask:
		return &messagespb.Origin{Kind: &messagespb.Origin_Task{Task: &messagespb.TaskOrigin{TaskId: o.TaskID}}}
	}
	return nil
}
