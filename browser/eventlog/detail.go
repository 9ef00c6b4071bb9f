package eventlog

import "maps"

// RequestDetail is one request as browser_network_request shows it.
type RequestDetail struct {
	NetworkRequest
	RequestHeaders  map[string]string `json:"requestHeaders"`
	ResponseHeaders map[string]string `json:"responseHeaders,omitempty"`
	MimeType        string            `json:"mimeType,omitempty"`
	// PostData is the request's body, when it had one Chrome kept.
	PostData string `json:"postData,omitempty"`
	// Body is the response's body (BodyBase64: Chrome sent it as binary);
	// BodyError says why there is none.
	Body       []byte `json:"-"`
	BodyBase64 bool   `json:"-"`
	BodyError  string `json:"bodyError,omitempty"`
}

// Detail returns the request seq (NetworkRequest.Seq) with its headers as
// kept, or nil when the log no longer keeps it; first and last are the
// numbers of the requests it keeps.
func (l *Log) Detail(seq int) (d *RequestDetail, first, last int) {
	var found *NetworkRequest
	list := l.network.list()
	for _, r := range list {
		if r.Seq == seq {
			cp := *r
			found = &cp
		}
	}
	first, last = 0, l.network.total
	if len(list) > 0 {
		first = list[0].Seq
	}
	if found == nil {
		return nil, first, last
	}
	return &RequestDetail{NetworkRequest: *found, RequestHeaders: maps.Clone(found.reqHeaders),
		ResponseHeaders: maps.Clone(found.respHeaders), MimeType: found.mimeType}, first, last
}
