package catalog_test

import (
	"context"
	"errors"
	"testing"

	"github.com/holon-actors/holon-actors/providers"
	"github.com/holon-actors/holon-actors/providers/catalog"
)

type named string

func (n named) Name() string { return string(n) }
func (n named) Complete(context.Context, providers.Request) (providers.Response, error) {
	return providers.Response{Text: string(n)}, nil
}

func TestRouter(t *testing.T) {
	builds := 0
	r := catalog.NewRouter(named("default"), func(model string) (providers.Provider, error) {
		builds++
		if model == "bad/model" {
			return nil, errors.New("no such model")
		}
		return named(model), nil
	})
	ctx := context.Background()
	for model, want := range map[string]string{"": "default", "openai/gpt-5": "openai/gpt-5"} {
		resp, err := r.Complete(ctx, providers.Request{Model: model})
		if err != nil || resp.Text != want {
			t.Fatalf("model %q answered %q, %v; want %q", model, resp.Text, err, want)
		}
	}
	_, _ = r.Complete(ctx, providers.Request{Model: "openai/gpt-5"})
	if builds != 1 {
		t.Fatalf("built %d times, want the override cached", builds)
	}
	if err := r.Check("bad/model"); err == nil {
		t.Fatal("Check accepted a model that cannot be built")
	}
	if _, err := r.Complete(ctx, providers.Request{Model: "bad/model"}); providers.KindOf(err) != providers.KindNotConfigured {
		t.Fatalf("bad override = %v, want not_configured", err)
	}
}
