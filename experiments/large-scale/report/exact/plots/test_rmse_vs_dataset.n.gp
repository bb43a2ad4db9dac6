# kexp plot; run `gnuplot test_rmse_vs_dataset.n.gp` here to redraw test_rmse_vs_dataset.n.svg
set terminal svg size 860,558 dynamic noenhanced font 'sans,11' background rgb 'white'
set output 'test_rmse_vs_dataset.n.svg'
set title 'test_rmse against dataset.n'
set xlabel 'dataset.n'
set ylabel 'test_rmse'
set grid
set format x '%g'
set format y '%g'
set bmargin 5
set label 100 'Points: one run each, so no bars.' at screen 0.01, screen 0.0215 left font ',9'
set key above maxcols 2 width 2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('1250' 1250, '5000' 5000, '20000' 20000, '50000' 50000, '125000' 125000)
set logscale x
$line0 << EOD
1250 1.8264434134050545 1.8264434134050545 1.8264434134050545
5000 1.3471093549771265 1.3471093549771265 1.3471093549771265
20000 1.5909654929679824 1.5909654929679824 1.5909654929679824
50000 3.056810587436644 3.056810587436644 3.056810587436644
125000 3.4275770080623844 3.4275770080623844 3.4275770080623844
EOD
$line1 << EOD
1250 1.8219945334756287 1.8219945334756287 1.8219945334756287
5000 1.3032844873147589 1.3032844873147589 1.3032844873147589
20000 1.1578172320667388 1.1578172320667388 1.1578172320667388
50000 1.0580625525433596 1.0580625525433596 1.0580625525433596
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'gaussian · cg_ridge (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'gaussian · kernel_ridge (dual)'
