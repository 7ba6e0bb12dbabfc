# V3, kept for existing integrations. quote-v3.json holds the
# V3 quote your integration received, unchanged (a V3 offramp
# quote carries ownerAddress).
curl -sS --fail-with-body -X POST "$GATEWAY_URL/v3/create-order" \
  -H 'Content-Type: application/json' \
  --data-binary @quote-v3.json
