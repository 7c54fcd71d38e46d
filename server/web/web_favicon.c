/* web_favicon.c: the site's icon, a small SVG (three rising bars on the
 * header's blue), served at /favicon.svg, which every page links, and at
 * /favicon.ico, where browsers look when a page links none, so that no
 * first visit ends in a 404. */
#include "server/web/web_handlers.h"

#include <string.h>

static const char icon[] =
  "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 16 16\">"
  "<rect width=\"16\" height=\"16\" rx=\"3\" fill=\"#16324f\"/>"
  "<rect x=\"3\" y=\"9\" width=\"2.5\" height=\"4\" fill=\"#fff\"/>"
  "<rect x=\"6.75\" y=\"6\" width=\"2.5\" height=\"7\" fill=\"#fff\"/>"
  "<rect x=\"10.5\" y=\"3\" width=\"2.5\" height=\"10\" fill=\"#56b4e9\"/></svg>\n";

enum MHD_Result
web_favicon (struct http_request *r)
{
  struct MHD_Response *resp =
    MHD_create_response_from_buffer (strlen (icon), (void *) icon, MHD_RESPMEM_PERSISTENT);
  if (!resp)
    return MHD_NO;
  MHD_add_response_header (resp, "Content-Type", "image/svg+xml");
  MHD_add_response_header (resp, "Cache-Control", "public, max-age=604800");
  return http_queue (r, 200, resp);
}
