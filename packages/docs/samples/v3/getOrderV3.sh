# V3, kept for existing integrations;
# /v4/get-order/{id} answers the same order info.
curl -sS --fail-with-body "$GATEWAY_URL/v3/get-order/$ORDER_ID"
