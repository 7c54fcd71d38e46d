/* linux_machine.c: the machine Linux runs on as its firmware names it,
 * system.machine: on Arm and RISC-V boards the device tree's `model`
 * ("Raspberry Pi 4 Model B Rev 1.4") and the SoC, the last entry of the
 * root node's `compatible` list (from the most specific, the board, to
 * the least, "brcm,bcm2711"); elsewhere (x86 and Arm servers, virtual
 * machines) DMI's system vendor and product name ("Amazon EC2
 * m6g.xlarge").  The CPU identity cannot tell these apart: a Cortex-A72
 * may be a Raspberry Pi 4 or another board.  Firmware strings are kept to
 * printable ASCII, so the document stays valid UTF-8 whatever they hold. */
#include "sysinfo/linux.h"
#include "common/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NAME 128

/* DMI placeholders that name nothing. */
static const char *const fillers[] = {
  "To Be Filled By O.E.M.", "To be filled by O.E.M.", "System Product Name",
  "System manufacturer", "Default string", "Not Specified", "Not Applicable", "None",
  "O.E.M.", "Unknown",
};

/* S (of LEN bytes, up to its first NUL) into BUF as printable ASCII,
 * other bytes as '?', runs of spaces as one, trimmed. */
static void
clean (char *buf, size_t n, const char *s, size_t len)
{
  size_t w = 0;
  for (size_t i = 0; i < len && s[i] != '\0' && w + 1 < n; i++)
    {
      char c = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
      if (c == ' ' && (w == 0 || buf[w - 1] == ' '))
        continue;
      buf[w++] = c;
    }
  while (w > 0 && buf[w - 1] == ' ')
    w--;
  buf[w] = '\0';
}

static int
filler (const char *s)
{
  if (*s == '\0')
    return 1;
  for (size_t i = 0; i < GB_ARRAY_SIZE (fillers); i++)
    if (strcmp (s, fillers[i]) == 0)
      return 1;
  return 0;
}

/* The device tree's file NAME (under /proc/device-tree, else
 * /sys/firmware/devicetree/base), its length in *LEN; NULL when absent. */
static char *
read_dt (struct si_linux *L, const char *name, size_t *len)
{
  char rel[128];
  snprintf (rel, sizeof rel, "proc/device-tree/%s", name);
  char *text = si_read_bytes (L->r, rel, len);
  if (text == NULL)
    {
      snprintf (rel, sizeof rel, "sys/firmware/devicetree/base/%s", name);
      text = si_read_bytes (L->r, rel, len);
    }
  return text;
}

/* The last string of the NUL-separated list TEXT[0..LEN), when it has
 * two or more (one entry names the board alone); NULL otherwise. */
static const char *
last_of_list (const char *text, size_t len)
{
  while (len > 0 && text[len - 1] == '\0')
    len--;
  const char *last = text;
  int entries = len > 0;
  for (size_t i = 0; i < len; i++)
    if (text[i] == '\0')
      {
        last = text + i + 1;
        entries++;
      }
  return entries >= 2 ? last : NULL;
}

/* From the device tree: 1 when it names the model. */
static int
from_device_tree (struct si_linux *L, cJSON *machine)
{
  char buf[MAX_NAME];
  size_t len;
  char *model = read_dt (L, "model", &len);
  int named = 0;

  if (model != NULL)
    {
      clean (buf, sizeof buf, model, len);
      if (*buf)
        {
          si_put_str (machine, DOC_SYS_MACHINE_MODEL, buf, "device tree model");
          named = 1;
        }
      free (model);
    }
  char *compatible = read_dt (L, "compatible", &len);
  const char *soc = compatible ? last_of_list (compatible, len) : NULL;
  if (soc != NULL)
    {
      clean (buf, sizeof buf, soc, len - (size_t) (soc - compatible));
      if (*buf)
        si_put_str (machine, DOC_SYS_MACHINE_SOC, buf, "device tree compatible, its last entry");
    }
  free (compatible);
  return named;
}

/* From DMI: "VENDOR PRODUCT", leaving out placeholders (and the vendor
 * when the product already starts with it). */
static void
from_dmi (struct si_linux *L, cJSON *machine)
{
  char vendor[MAX_NAME], product[MAX_NAME], model[2 * MAX_NAME];
  char *v = si_read (L->r, "sys/class/dmi/id/sys_vendor");
  char *p = si_read (L->r, "sys/class/dmi/id/product_name");

  clean (vendor, sizeof vendor, v ? v : "", v ? strlen (v) : 0);
  clean (product, sizeof product, p ? p : "", p ? strlen (p) : 0);
  free (v);
  free (p);
  if (filler (product))
    return;
  if (filler (vendor) || strncmp (product, vendor, strlen (vendor)) == 0)
    snprintf (model, sizeof model, "%s", product);
  else
    snprintf (model, sizeof model, "%s %s", vendor, product);
  si_put_str (machine, DOC_SYS_MACHINE_MODEL, model, "DMI sys_vendor and product_name");
}

void
si_linux_machine (struct si_linux *L)
{
  cJSON *machine = si_section (L->system, DOC_SYS_MACHINE);

  if (!from_device_tree (L, machine))
    from_dmi (L, machine);
  si_put_absent (machine, DOC_SYS_MACHINE_MODEL, "no device tree model, no DMI product_name");
}
