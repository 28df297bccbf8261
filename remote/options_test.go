package remote_test

import (
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/remote"
)

func TestOptionsValidate(t *testing.T) {
	ok := remote.Options{Addr: "127.0.0.1:7100", TLSDir: "/tls", Listen: "127.0.0.1:0"}
	for _, tc := range []struct {
		name   string
		change func(*remote.Options)
		want   string // "" means valid
	}{
		{"valid", func(*remote.Options) {}, ""},
		{"advertised", func(o *remote.Options) { o.Listen, o.Advertise = "0.0.0.0:7200", "10.0.0.5:7200" }, ""},
		{"no address", func(o *remote.Options) { o.Addr = "" }, "no node address"},
		{"address without port", func(o *remote.Options) { o.Addr = "node-1" }, "want HOST:PORT"},
		{"address port 0", func(o *remote.Options) { o.Addr = "127.0.0.1:0" }, "not 0"},
		{"address port out of range", func(o *remote.Options) { o.Addr = "127.0.0.1:70000" }, "from 1 to 65535"},
		{"no TLS directory", func(o *remote.Options) { o.TLSDir = "" }, "no TLS directory"},
		{"bad listen", func(o *remote.Options) { o.Listen = "localhost" }, "listen address"},
		{"wildcard advertised", func(o *remote.Options) { o.Advertise = "0.0.0.0:7200" }, "not every interface"},
		{"negative retries", func(o *remote.Options) { o.Retries = -1 }, "retries"},
		{"fallback nodes", func(o *remote.Options) { o.Fallback = []string{"127.0.0.1:7101", "10.0.0.6:7100"} }, ""},
		{"fallback without port", func(o *remote.Options) { o.Fallback = []string{"127.0.0.1:7101", "node-3"} }, "fallback node address"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := ok
			tc.change(&o)
			err := o.Validate()
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("Validate(%+v) = %v, want nil", o, err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("Validate(%+v) = %v, want an error saying %q", o, err, tc.want)
			}
		})
	}
}
