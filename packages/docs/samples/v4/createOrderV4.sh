# The quote goes back to create-order exactly as get-quote
# returned it: pipe one into the other.
GATEWAY_URL="${GATEWAY_URL:-http://127.0.0.1:8080}"  # the local sandbox (pnpm server) unless set
curl -sS --fail-with-body --get "$GATEWAY_URL/v4/get-quote" \
  ${GATEWAY_API_KEY:+-H "Authorization: Bearer $GATEWAY_API_KEY"} \
  --data-urlencode 'srcChain=bitcoin' \
  --data-urlencode 'dstChain=bob' \
  --data-urlencode 'srcToken=0x0000000000000000000000000000000000000000' \
  --data-urlencode 'dstToken=0x03C7054BCB39f7b2e5B2c7AcB37583e32D70Cfa3' \
  --data-urlencode 'amount=1000000' \
  --data-urlencode 'recipient=0x71C7656EC7ab88b098defB751B7401B5f6d8976F' \
  --data-urlencode 'refundAddress=bc1q3ftg88fp55ek66v7jg5dl4q0esy96rd92epged' |
curl -sS --fail-with-body -X POST "$GATEWAY_URL/v4/create-order" \
  ${GATEWAY_API_KEY:+-H "Authorization: Bearer $GATEWAY_API_KEY"} \
  -H 'Content-Type: application/json' \
  --data-binary @-
