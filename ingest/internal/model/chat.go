package model

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"unicode/utf8"
)

// chat sends one system and user message and returns the reply's text.
func (m *Client) chat(ctx context.Context, system, user string) (string, error) {
	timeout := m.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req := map[string]any{
		"messages":    []map[string]string{{"role": "system", "content": system}, {"role": "user", "content": user}},
		"temperature": 0,
	}
	if m.Name != "" {
		req["model"] = m.Name
	}
	body, err := json.Marshal(req)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrModel, err)
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, m.Endpoint(), bytes.NewReader(body))
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrModel, err)
	}
	hr.Header.Set("Content-Type", "application/json")
	if m.Key != "" {
		hr.Header.Set("Authorization", "Bearer "+m.Key)
	}
	client := m.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(hr)
	if err == nil {
		defer resp.Body.Close()
		var raw []byte
		raw, err = io.ReadAll(io.LimitReader(resp.Body, maxModelResponse))
		if err == nil {
			return chatText(resp, raw)
		}
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return "", fmt.Errorf("%w: no answer within %s", ErrModel, timeout)
	}
	return "", fmt.Errorf("%w: %w", ErrModel, err)
}

// chatText reads a chat completion's first choice.
func chatText(resp *http.Response, raw []byte) (string, error) {
	if resp.StatusCode/100 != 2 {
		return "", fmt.Errorf("%w: %s", ErrModel, resp.Status)
	}
	var out struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return "", fmt.Errorf("%w: reply is not a chat completion: %v", ErrModel, err)
	}
	if len(out.Choices) == 0 {
		return "", fmt.Errorf("%w: reply has no choices", ErrModel)
	}
	if !utf8.ValidString(out.Choices[0].Message.Content) {
		return "", fmt.Errorf("%w: reply is not text", ErrModel)
	}
	return out.Choices[0].Message.Content, nil
}
