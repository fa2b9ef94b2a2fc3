/**
 * Homeland links an uploaded photo as `/uploads/photo/<login>/<file>` followed by a version (`!large`, `!md`, …),
 * relative or behind the site's own or its CDN's address (docs/import-homeland.md, photos). Every such link to a
 * photo the import stored is replaced by the photo's URL here (no version: ours are one size); links to anything
 * else are left as they are.
 */
const PHOTO_LINK =
  /(?:https?:\/\/[^\s/()<>"'\]]+)?\/(?:uploads\/)?photo\/([A-Za-z0-9_.\-]+\/[A-Za-z0-9_.\-]+)(?:![A-Za-z0-9_]+)?/g;

/** Homeland's photo links in `body` replaced by their new URLs (`urls`: image path, as `photos.image`, to URL). */
export function photoLinkRewriter(urls: ReadonlyMap<string, string>): (body: string) => string {
  return (body) => body.replace(PHOTO_LINK, (link, image: string) => urls.get(image) ?? link);
}

/** Whether a body may link a homeland photo (the staging query's filter says the same in SQL). */
export const PHOTO_LINK_MARK = '/photo/';
