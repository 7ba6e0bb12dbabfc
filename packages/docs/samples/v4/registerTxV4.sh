# Onramp only: ORDER_ID from create-order, and SIGNED_TX_HEX the
# finalized, signed raw Bitcoin transaction that pays the order
# (not a PSBT, not a txid).
curl -sS --fail-with-body -X PATCH "$GATEWAY_URL/v4/register-tx" \
  -H 'Content-Type: application/json' \
  --data-binary @- <<JSON
{ "onramp": { "order_id": "$ORDER_ID", "bitcoin_tx_hex": "$SIGNED_TX_HEX" } }
JSON
