;;; emacs_test.el --- the eglot setup of docs/editors.md against the real ptxls -*- lexical-binding: t -*-
;;
;; Run through tests/clients/editors/run-emacs.sh, which extracts the Emacs block of
;; docs/editors.md into PTX_INIT, copies the fixtures into WORK and puts `ptxls' on PATH:
;;   emacs --batch -q -l emacs_test.el
;; Loads the documented configuration as an init file would, opens a PTX file (ptx-mode by
;; content, not for a point cloud that is also named .ptx), connects eglot through the
;; documented `eglot-server-programs' entry, waits for the server's diagnostics in flymake, as
;; warnings by the documented .dir-locals.el (which run-emacs.sh puts in the project), and asks
;; for hover. Prints one JSON object (also to OUT_JSON); exit 0 ok, 1 a check failed,
;; 2 harness error.

(require 'json)
(require 'subr-x)

(defvar ptx-test-checks nil)
(defvar ptx-test-started (float-time))

(defun ptx-test-check (name ok got)
  (push `((name . ,name) (ok . ,(if ok t :json-false)) (got . ,got)) ptx-test-checks)
  ok)

(defun ptx-test-eglot-version ()
  (require 'package)
  (let ((desc (cadr (assq 'eglot package-alist))))
    (cond (desc (package-version-join (package-desc-version desc)))
          ((assq 'eglot package--builtin-versions)
           (package-version-join (alist-get 'eglot package--builtin-versions)))
          (t "unknown"))))

(defun ptx-test-finish (code &optional extra)
  (let* ((failed (seq-count (lambda (c) (eq (alist-get 'ok c) :json-false)) ptx-test-checks))
         (result `((emacs . ,emacs-version)
                   (eglot . ,(ptx-test-eglot-version))
                   (seconds . ,(/ (round (* 100 (- (float-time) ptx-test-started))) 100.0))
                   (passed . ,(- (length ptx-test-checks) failed))
                   (failed . ,failed)
                   ,@extra
                   (checks . ,(vconcat (reverse ptx-test-checks)))))
         (text (json-encode result)))
    (when-let ((out (getenv "OUT_JSON")))
      (with-temp-file out (insert text "\n")))
    (princ (concat text "\n"))
    (kill-emacs (if (and (= code 0) (> failed 0)) 1 code))))

(defun ptx-test-line-of (needle)
  "0-based line of the first NEEDLE in the current buffer, and its offset in characters from
the line's start (not `current-column', which counts a tab as several columns)."
  (save-excursion
    (goto-char (point-min))
    (unless (search-forward needle nil t)
      (error "No %s in %s" needle (buffer-name)))
    (goto-char (match-beginning 0))
    (cons (1- (line-number-at-pos)) (- (point) (line-beginning-position)))))

(condition-case err
    (let ((work (or (getenv "WORK") (error "WORK is not set")))
          (init (or (getenv "PTX_INIT") (error "PTX_INIT is not set"))))
      ;; An interactive Emacs activates installed packages (Debian's elpa-eglot, or eglot from
      ;; ELPA on Emacs 28) before reading the init file; batch mode does not.
      (when (fboundp 'package-activate-all) (package-activate-all))
      (load init nil t)
      (require 'eglot)
      (setq eglot-sync-connect 10)

      (let ((scan (find-file-noselect (expand-file-name "other/scan.ptx" work)))
            (new (find-file-noselect (expand-file-name "other/new.ptx" work))))
        (ptx-test-check "a point-cloud .ptx is not ptx-mode"
                        (not (eq (buffer-local-value 'major-mode scan) 'ptx-mode))
                        (symbol-name (buffer-local-value 'major-mode scan)))
        (ptx-test-check "a new .ptx is ptx-mode" (eq (buffer-local-value 'major-mode new) 'ptx-mode)
                        (symbol-name (buffer-local-value 'major-mode new)))
        (kill-buffer scan)
        (with-current-buffer new (set-buffer-modified-p nil))
        (kill-buffer new))

      (with-current-buffer (find-file-noselect (expand-file-name "a/broken.ptx" work))
        (ptx-test-check "broken.ptx is ptx-mode" (eq major-mode 'ptx-mode) (symbol-name major-mode))
        (let ((contact (eglot--guess-contact)))
          (ptx-test-check "eglot-server-programs gives ptxls for ptx-mode"
                          (member "ptxls" (flatten-tree (nth 3 contact)))
                          (format "%S" (nth 3 contact)))
          ;; eglot-ensure (the documented hook) waits for a command loop that batch mode never
          ;; runs; connect as it would.
          (unless (eglot-current-server) (apply #'eglot contact)))
        (let ((server (eglot-current-server))
              (deadline (+ (float-time) 10))
              diagnostics)
          (unless server (error "eglot did not connect"))
          ;; The first report may predate the settings: eglot sends them once connected.
          (while (and (not (and (= (length (setq diagnostics (flymake-diagnostics))) 2)
                                (seq-every-p (lambda (d) (eq (flymake-diagnostic-type d) 'eglot-warning))
                                             diagnostics)))
                      (< (float-time) deadline))
            (accept-process-output nil 0.05)
            (flymake-start))
          (let* ((globl (ptx-test-line-of ".globl"))
                 (s33 (ptx-test-line-of ".s33"))
                 (seen (sort (mapcar (lambda (d)
                                       `((line . ,(1- (line-number-at-pos (flymake-diagnostic-beg d))))
                                         (type . ,(format "%s" (flymake-diagnostic-type d)))
                                         (text . ,(flymake-diagnostic-text d))))
                                     diagnostics)
                             (lambda (a b) (< (alist-get 'line a) (alist-get 'line b))))))
            (ptx-test-check "flymake shows ISA004 on the ld.globl and add.s33 lines, warnings by .dir-locals.el"
                            (and (= (length seen) 2)
                                 (= (alist-get 'line (nth 0 seen)) (car globl))
                                 (= (alist-get 'line (nth 1 seen)) (car s33))
                                 (seq-every-p (lambda (d) (and (string-match-p "ISA004" (alist-get 'text d))
                                                               (string= (alist-get 'type d) "eglot-warning")))
                                              seen))
                            (vconcat seen)))
          (let* ((st (ptx-test-line-of "st.global.u32"))
                 (hover (save-excursion
                          (goto-char (point-min))
                          (forward-line (car st))
                          (forward-char (1+ (cdr st)))
                          (jsonrpc-request server :textDocument/hover (eglot--TextDocumentPositionParams))))
                 (value (plist-get (plist-get hover :contents) :value)))
            (ptx-test-check "hover on st is the server's markdown for st"
                            (and (stringp value) (string-prefix-p "**st**" value))
                            (if (stringp value) (substring value 0 (min 120 (length value))) :null)))
          (eglot-shutdown server)))
      (ptx-test-finish 0))
  (error (ptx-test-finish 2 `((error . ,(format "%S" err))))))
