package notify_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/notify"
)

// A receiver checks the signature on the raw body before trusting it,
// then dedupes on the delivery ID, which every retry repeats.
func ExampleVerify() {
	secret := []byte("example secret: at least 32 bytes long")
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
		if err != nil {
			http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
			return
		}
		err = notify.Verify(secret, r.Header.Get(notify.HeaderTimestamp), r.Header.Get(notify.HeaderSignature),
			body, time.Now(), notify.DefaultTolerance)
		if err != nil {
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		var in notify.Intent
		if err := json.Unmarshal(body, &in); err != nil {
			http.Error(w, "bad intent", http.StatusBadRequest)
			return
		}
		// Seen in.DeliveryID before? Answer 2xx again and do nothing more.
		fmt.Printf("%s attempt %d: %s\n", in.DeliveryID, in.Attempt, in.Notification.Summary)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer receiver.Close()

	webhook, err := notify.New(notify.Config{URL: receiver.URL, Secret: secret})
	if err != nil {
		fmt.Println(err)
		return
	}
	n := messages.OperatorNotification{NotificationID: "ntf-42", AgentID: "agt-1",
		TargetOperatorBoundary: messages.BoundaryPrimaryOperator, Message: "Approve the deploy?",
		Summary: "Approve the deploy?", Reason: messages.NotifyAgentTool, CreatedAt: time.Now()}
	status := webhook.Deliver(context.Background(), n, func(d messages.OperatorNotificationDelivery) {
		fmt.Println("report:", d.Status, "attempt", d.Attempt, "HTTP", d.HTTPStatus)
	})
	fmt.Println(status)
	// Output:
	// ntf-42 attempt 1: Approve the deploy?
	// report: accepted_by_transport attempt 1 HTTP 204
	// accepted_by_transport
}
