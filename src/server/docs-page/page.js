// Starts Swagger UI on the server's own OpenAPI document. "Authorize" takes an API key (bearer or
// x-api-key) for "Try it out"; the key stays in this page's memory only.
window.SwaggerUIBundle({
  url: '/api/v1/openapi.json',
  dom_id: '#api-reference',
  deepLinking: true,
  tryItOutEnabled: true,
  persistAuthorization: false,
  displayRequestDuration: true,
  validatorUrl: null,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
});
