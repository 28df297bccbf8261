package agenthome

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// getContents decodes GET {api}/repos/OWNER/REPO/contents/PATH?ref=REF
// into v: a 404 is ErrTemplate (nothing there), any other failure
// ErrUnreachable.
func getContents(ctx context.Context, cfg Config, g githubRef, p string, v any) error {
	u := fmt.Sprintf("%s/repos/%s/%s/contents/%s?ref=%s", cfg.api(), url.PathEscape(g.Owner), url.PathEscape(g.Repo),
		escapePath(p), url.QueryEscape(g.Ref))
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrUnreachable, err)
	}
	req.Header.Set("Accept", "application/vnd.github+json")
	resp, err := cfg.client().Do(req)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrUnreachable, err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return fmt.Errorf("%w: nothing at %s/%s/%s on %s", ErrTemplate, g.Owner, g.Repo, p, g.Ref)
	case resp.StatusCode != http.StatusOK:
		return fmt.Errorf("%w: GET %s: HTTP %d", ErrUnreachable, u, resp.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxTemplateBytes*2))
	if err != nil {
		return fmt.Errorf("%w: read %s: %v", ErrUnreachable, u, err)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("%w: %s answered with unexpected JSON: %v", ErrUnreachable, u, err)
	}
	return nil
}

func escapePath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

// decodeContent is a contents API file's bytes.
func decodeContent(f contentEntry) ([]byte, error) {
	if f.Encoding != "base64" {
		return nil, fmt.Errorf("encoding %q, want base64", f.Encoding)
	}
	return base64.StdEncoding.DecodeString(strings.ReplaceAll(f.Content, "\n", ""))
}
