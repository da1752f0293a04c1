package nntp

import (
	"bytes"
	"encoding/json"
)

// ArticleItem is a JSON Lines object of a group listing: one article of
// its overview (RFC 3977 §8.3), with its news: and nntp: URLs (RFC 1738
// §3.6, §3.7).
type ArticleItem struct {
	Number     int64  `json:"number"`
	Subject    string `json:"subject"`
	From       string `json:"from"`
	Date       string `json:"date"`
	MessageID  string `json:"message_id"`
	References string `json:"references,omitempty"`
	Bytes      int64  `json:"bytes,omitempty"`
	Lines      int64  `json:"lines,omitempty"`
	NewsURL    string `json:"news_url"`
	NNTPURL    string `json:"nntp_url"`
}

// GroupItem is a JSON Lines object of the news:* listing (RFC 1738 §3.6):
// one group of LIST ACTIVE (RFC 3977 §7.6.3), with its URLs.
type GroupItem struct {
	Group    string `json:"group"`
	Articles int64  `json:"articles"`
	Low      int64  `json:"low"`
	High     int64  `json:"high"`
	Status   string `json:"status"`
	NewsURL  string `json:"news_url"`
	NNTPURL  string `json:"nntp_url"`
}

// NewArticleItem returns the ArticleItem of an overview line of a group
// on the server host:port.
func NewArticleItem(ov OverviewLine, host string, port int) ArticleItem {
	return ArticleItem{
		Number: ov.Number, Subject: ov.Subject, From: ov.From, Date: ov.Date,
		MessageID: ov.MessageID, References: ov.References, Bytes: ov.Bytes, Lines: ov.Lines,
		NewsURL: NewsURL(ov.MessageID), NNTPURL: NNTPURL(host, port, ov.Group, ov.Number),
	}
}

// NewGroupItem returns the GroupItem of a group on the server host:port.
func NewGroupItem(g ActiveGroup, host string, port int) GroupItem {
	count := int64(0)
	if g.High >= g.Low {
		count = g.High - g.Low + 1 // RFC 3977 §6.1.1: an estimate is allowed
	}
	return GroupItem{
		Group: g.Name, Articles: count, Low: g.Low, High: g.High, Status: g.Status,
		NewsURL: NewsGroupURL(g.Name), NNTPURL: NNTPURL(host, port, g.Name, 0),
	}
}

// JSONLines encodes JSON Lines objects into one reused buffer. Its zero
// value is ready to use.
type JSONLines struct {
	buf bytes.Buffer
	enc *json.Encoder
}

// Append appends v as one JSON line (HTML characters unescaped).
func (j *JSONLines) Append(dst []byte, v any) ([]byte, error) {
	if j.enc == nil {
		j.enc = json.NewEncoder(&j.buf)
		j.enc.SetEscapeHTML(false)
	}
	j.buf.Reset()
	if err := j.enc.Encode(v); err != nil {
		return dst, err
	}
	return append(dst, j.buf.Bytes()...), nil
}
