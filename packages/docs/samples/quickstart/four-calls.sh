# The four calls of every swap, in curl; sed picks the order id out of
# the answer (jq -r .onramp.order_id does too).
GATEWAY_URL="${GATEWAY_URL:-http://127.0.0.1:8080}"  # the local sandbox (pnpm server) unless set
# 1. The routes.
curl -sS --fail-with-body \
  ${GATEWAY_API_KEY:+-H "Authorization: Bearer $GATEWAY_API_KEY"} \
  "$GATEWAY_URL/v4/get-routes"
echo
# 2. A quote of 0.01 BTC to wrapped BTC on BOB, executable: it names a refund address.
quote=$(curl -sS --fail-with-body --get "$GATEWAY_URL/v4/get-quote" \
  ${GATEWAY_API_KEY:+-H "Authorization: Bearer $GATEWAY_API_KEY"} \
  --data-urlencode 'srcChain=bitcoin' \
  --data-urlencode 'dstChain=bob' \
  --data-urlencode 'srcToken=0x0000000000000000000000000000000000000000' \
  --data-urlencode 'dstToken=0x03C7054BCB39f7b2e5B2c7AcB37583e32D70Cfa3' \
  --data-urlencode 'amount=1000000' \
  --data-urlencode 'recipient=0x71C7656EC7ab88b098defB751B7401B5f6d8976F' \
  --data-urlencode 'refundAddress=bc1q3ftg88fp55ek66v7jg5dl4q0esy96rd92epged')
echo "$quote"
# 3. The order, from the quote unchanged.
order=$(printf '%s' "$quote" | curl -sS --fail-with-body -X POST "$GATEWAY_URL/v4/create-order" \
  ${GATEWAY_API_KEY:+-H "Authorization: Bearer $GATEWAY_API_KEY"} \
  -H 'Content-Type: application/json' \
  --data-binary @-)
echo "$order"
order_id=$(printf '%s' "$order" | sed -n 's/.*"order_id":"\([^"]*\)".*/\1/p')
# 4. The order as it stands.
curl -sS --fail-with-body \
  ${GATEWAY_API_KEY:+-H "Authorization: Bearer $GATEWAY_API_KEY"} \
  "$GATEWAY_URL/v4/get-order/$order_id"
echo
