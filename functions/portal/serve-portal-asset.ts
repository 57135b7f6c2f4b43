import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { portalNotFound } from './portal-not-found';
import { portalAssets } from './portal-page-document';

/** Named by a hash of their content, an asset's URL never changes meaning: caches keep it a year. */
const immutable = 'public, max-age=31536000, immutable';

/**
 * `GET /portal/assets/{asset}`: the portal's script or stylesheet by its hashed name
 * (docs/decisions/merchant-portal-page.md); any other name is a 404 in the API's error shape.
 */
export async function handler(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  const name = event.pathParameters?.asset;
  const asset = portalAssets.find((candidate) => candidate.name === name);
  if (asset === undefined) return portalNotFound(event, 'No such portal asset.');
  return {
    statusCode: 200,
    headers: {
      'Content-Type': asset.contentType,
      'Cache-Control': immutable,
      'X-Content-Type-Options': 'nosniff',
    },
    body: asset.body,
  };
}
