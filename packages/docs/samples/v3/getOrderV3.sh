# V3, kept for existing integrations;
# /v4/get-order/{id} answers the same order info.
curl -sS --fail-with-body "$GATEWAY_URL/v3/get-order/8d3c7a0e-5f1b-4b6e-9a51-2f0c7e4d9b12"
