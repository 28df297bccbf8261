package messages_test

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/messages"
)

func TestRetentionPoliciesJSON(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		agent   string
		want    messages.RetentionPolicy
		wantErr string
	}{
		{name: "absent is the default", in: `{}`, agent: "a", want: messages.DefaultRetention()},
		{name: "default applies", in: `{"default":{"mode":"drop","keep_events":5,"max_age":"1h"}}`, agent: "a",
			want: messages.RetentionPolicy{Mode: messages.RetentionDrop, KeepEvents: 5, MaxAge: time.Hour}},
		{name: "agent entry wins", in: `{"default":{"mode":"drop"},"agents":{"a":{"mode":"keep"}}}`, agent: "a",
			want: messages.RetentionPolicy{Mode: messages.RetentionKeep}},
		{name: "mode defaults to archive", in: `{"agents":{"a":{"keep_events":3}}}`, agent: "a",
			want: messages.RetentionPolicy{Mode: messages.RetentionArchive, KeepEvents: 3}},
		{name: "bad mode", in: `{"agents":{"a":{"mode":"shred"}}}`, wantErr: `retention.agents.a: invalid retention policy: mode "shred" must be archive, drop or keep`},
		{name: "bad age", in: `{"default":{"max_age":"a week"}}`, wantErr: `invalid retention policy: max_age "a week" is not a duration such as "168h" or "30m"`},
		{name: "negative age", in: `{"default":{"max_age":"-1h"}}`, wantErr: `retention.default: invalid retention policy: max_age -1h0m0s must not be negative`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c messages.RetentionPolicies
			err := json.Unmarshal([]byte(tt.in), &c)
			if err == nil {
				err = c.Validate()
			}
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr || !errors.Is(err, messages.ErrInvalidRetention) {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := c.For(tt.agent); got != tt.want {
				t.Fatalf("For(%s) = %+v, want %+v", tt.agent, got, tt.want)
			}
			b, _ := json.Marshal(c)
			var back messages.RetentionPolicies
			if err := json.Unmarshal(b, &back); err != nil || back.For(tt.agent) != tt.want {
				t.Fatalf("round trip of %s = %+v, %v", b, back.For(tt.agent), err)
			}
		})
	}
}
