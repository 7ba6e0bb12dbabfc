# Onramp only: ORDER_ID from create-order, and SIGNED_TX_HEX the
# finalized, signed raw Bitcoin transaction that pays the order
# (not a PSBT, not a txid).
GATEWAY_URL="${GATEWAY_URL:-http://127.0.0.1:8080}"  # the local sandbox (pnpm server) unless set
curl -sS --fail-with-body -X PATCH "$GATEWAY_URL/v4/register-tx" \
  ${GATEWAY_API_KEY:+-H "Authorization: Bearer $GATEWAY_API_KEY"} \
  -H 'Content-Type: application/json' \
  --data-binary @- <<JSON
{ "onramp": { "order_id": "$ORDER_ID", "bitcoin_tx_hex": "$SIGNED_TX_HEX" } }
JSON
