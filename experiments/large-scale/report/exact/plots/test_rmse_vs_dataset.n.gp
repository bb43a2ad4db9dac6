# kexp plot; run `gnuplot test_rmse_vs_dataset.n.gp` here to redraw test_rmse_vs_dataset.n.svg
set terminal svg size 1000,642 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_rmse_vs_dataset.n.svg'
set title 'test RMSE against n_train'
set xlabel 'n_train (training points)'
set ylabel 'test RMSE'
set grid
set format x '%g'
set format y '%g'
set bmargin 5
set label 100 'Points: one run each, so no bars.' at screen 0.01, screen 0.0218 left font ',12'
set key above maxcols 2 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('1000' 1000, '4000' 4000, '16000' 16000, '40000' 40000, '100000' 100000)
set logscale x
$line0 << EOD
1000 1.8264434134050545 1.8264434134050545 1.8264434134050545
4000 1.3471093549771265 1.3471093549771265 1.3471093549771265
16000 1.5909654929679824 1.5909654929679824 1.5909654929679824
40000 3.056810587436644 3.056810587436644 3.056810587436644
100000 3.4275770080623844 3.4275770080623844 3.4275770080623844
EOD
$line1 << EOD
1000 1.8219945334756287 1.8219945334756287 1.8219945334756287
4000 1.3032844873147589 1.3032844873147589 1.3032844873147589
16000 1.1578172320667388 1.1578172320667388 1.1578172320667388
40000 1.0580625525433596 1.0580625525433596 1.0580625525433596
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'gaussian · cg_ridge (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'gaussian · kernel_ridge (dual)'
